-- SQLite's search index becomes a table of ours (lib/store/search-postings.ts): for each run,
-- trigram and block of 2,048 generation ids, which of the block's generations hold the trigram.
-- FTS5 took each output's ~550 trigrams as words, one index entry each, and writing them was the
-- largest single cost on a load's thread (docs/performance.md, "Load"). A run's rows go with it
-- (the trigger); generations are never deleted while their run remains. The searchable runs'
-- stored outputs are indexed again by the data step.
DROP TRIGGER IF EXISTS "Generation_fts_delete";
DROP TABLE "GenerationFts";
CREATE TABLE "SearchPosting" (
  "runId" INTEGER NOT NULL,
  "trigram" INTEGER NOT NULL,
  "block" INTEGER NOT NULL,
  "ids" BLOB NOT NULL,
  -- block before trigram: a load appends a block's rows at the end of its run's range (trigram
  -- first, every block's rows went all over the index, one random page per row)
  PRIMARY KEY ("runId", "block", "trigram")
) WITHOUT ROWID;
CREATE TRIGGER "Run_search_delete" AFTER DELETE ON "Run" BEGIN
  DELETE FROM "SearchPosting" WHERE "runId" = old."id";
END;
-- stepwise:convert search-postings
