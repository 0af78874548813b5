-- The model's output stored deflated (Generation.outputDeflated, lib/store/output-text.ts):
-- it is two thirds of a native file, and the store was 2.3× the file (docs/performance.md,
-- "Store size"). The search index becomes contentless: it cannot read the text from the
-- table any more, so each writer gives it the text as it writes the row (a bulk load, batch
-- by batch; `stepwise run`, row by row), and the search re-checks its candidates with
-- stepwise_output(), a function registered on every connection. A trigram index answers
-- only "may contain"; detail=none keeps it small.
-- AlterTable
ALTER TABLE "Generation" ADD COLUMN "outputDeflated" BLOB;

DROP TRIGGER "Generation_fts_insert";
DROP TRIGGER "Generation_fts_delete";
DROP TRIGGER "Generation_fts_update";
DROP TABLE "GenerationFts";
CREATE VIRTUAL TABLE "GenerationFts" USING fts5("output", content='', contentless_delete=1, tokenize='trigram', detail='none');

-- Every stored output deflated, and the indexed runs' texts indexed again (lib/store/output-migration.ts).
-- stepwise:convert deflate-outputs

-- A replaced run's rows go in a cascade, after its Run row: the loader removes them from the
-- index before deleting the run (lib/store/search-index.ts), and this trigger, finding no
-- indexed run, stays out of the way. It serves rows deleted while their run remains.
CREATE TRIGGER "Generation_fts_delete" AFTER DELETE ON "Generation"
WHEN (SELECT "searchIndexed" FROM "Run" WHERE "id" = old."runId") BEGIN
  DELETE FROM "GenerationFts" WHERE rowid = old."id";
END;
