-- PostgreSQL's search index becomes SQLite's table of postings (lib/store/search-postings.ts):
-- for each run, trigram and block of 2,048 generation ids, which of the block's generations hold
-- the trigram. pg_trgm's GIN index over the output column, which the server kept up to date on
-- every row written, was half of a load's time here (10,000 items 8.15 → 3.85 s without it,
-- docs/performance.md, "Load"); the postings are written by the loader as SQLite's are, and both
-- stores now narrow a search the same way before checking the text (lib/store/dialect.ts).
-- The output stays text here: a search checks it in the query. A run's rows go with it.
DROP INDEX IF EXISTS "Generation_output_trgm_idx";
CREATE TABLE "SearchPosting" (
  "runId" INTEGER NOT NULL REFERENCES "Run" ("id") ON DELETE CASCADE,
  "trigram" INTEGER NOT NULL,
  "block" INTEGER NOT NULL,
  "ids" BYTEA NOT NULL,
  PRIMARY KEY ("runId", "block", "trigram")
);
-- Every run was flagged searchable (pg_trgm served them all): their stored outputs are indexed.
-- stepwise:convert search-postings
