-- SQLite's search index becomes a table of postings (lib/store/search-postings.ts); PostgreSQL's
-- pg_trgm index reads the output column itself, so there is nothing to do here (the two stores
-- keep the same migration names).
SELECT 1;
