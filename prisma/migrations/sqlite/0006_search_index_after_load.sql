-- Search index of a bulk load built in one pass at the end of the load (docs/performance.md,
-- "Load"), not row by row: a run loaded in bulk starts with searchIndexed = false, the
-- triggers skip its rows, and the loader indexes them with one INSERT … SELECT before its
-- commit and sets the flag (the benchmark defers that step to time it apart; meanwhile search
-- scans the run). Runs written one generation at a time (the runner) keep the triggers.
-- Existing runs were indexed by the triggers of 0004.
ALTER TABLE "Run" ADD COLUMN "searchIndexed" BOOLEAN NOT NULL DEFAULT true;

DROP TRIGGER "Generation_fts_insert";
DROP TRIGGER "Generation_fts_delete";
DROP TRIGGER "Generation_fts_update";
CREATE TRIGGER "Generation_fts_insert" AFTER INSERT ON "Generation"
WHEN (SELECT "searchIndexed" FROM "Run" WHERE "id" = new."runId") BEGIN
  INSERT INTO "GenerationFts"(rowid, "output") VALUES (new."id", new."output");
END;
-- A replaced run's rows go in a cascade, after its Run row: the loader removes them from the
-- index before deleting the run (lib/store/search-index.ts), and this trigger, finding no
-- indexed run, stays out of the way. It serves rows deleted while their run remains.
CREATE TRIGGER "Generation_fts_delete" AFTER DELETE ON "Generation"
WHEN (SELECT "searchIndexed" FROM "Run" WHERE "id" = old."runId") BEGIN
  INSERT INTO "GenerationFts"("GenerationFts", rowid, "output") VALUES ('delete', old."id", old."output");
END;
CREATE TRIGGER "Generation_fts_update" AFTER UPDATE OF "output" ON "Generation"
WHEN (SELECT "searchIndexed" FROM "Run" WHERE "id" = new."runId") BEGIN
  INSERT INTO "GenerationFts"("GenerationFts", rowid, "output") VALUES ('delete', old."id", old."output");
  INSERT INTO "GenerationFts"(rowid, "output") VALUES (new."id", new."output");
END;
