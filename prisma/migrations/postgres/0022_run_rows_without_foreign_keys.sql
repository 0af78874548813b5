-- A run's items, generations and search-index rows no longer hold a foreign key to "Run" on
-- PostgreSQL: the server checks a foreign key with a query of its own per inserted row, and
-- those checks were a quarter of its work in a load (docs/decisions.md, "A run's rows hold no
-- foreign key to it on PostgreSQL"). What the keys gave is kept otherwise: a transaction that
-- writes rows of a run it did not create first locks the run's row (`holdRun`,
-- lib/store/delete-run.ts), so the run cannot go while it writes; and deleting a run deletes
-- its rows, by the trigger below, before its row goes (the other tables keep their cascades).
-- Generation's key to its item and Item's to its content record stay.
ALTER TABLE "Generation" DROP CONSTRAINT "Generation_runId_fkey";
ALTER TABLE "Item" DROP CONSTRAINT "Item_runId_fkey";
ALTER TABLE "SearchPosting" DROP CONSTRAINT "SearchPosting_runId_fkey";
CREATE FUNCTION "stepwise_delete_run_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "SearchPosting" WHERE "runId" = OLD."id";
  DELETE FROM "Generation" WHERE "runId" = OLD."id";
  DELETE FROM "Item" WHERE "runId" = OLD."id";
  RETURN OLD;
END $$;
CREATE TRIGGER "Run_rows_delete" BEFORE DELETE ON "Run" FOR EACH ROW EXECUTE FUNCTION "stepwise_delete_run_rows"();
