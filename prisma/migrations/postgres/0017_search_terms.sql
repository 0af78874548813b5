-- SQLite's search index changes what it holds (lib/store/search-terms.ts); PostgreSQL's
-- pg_trgm index reads the output column itself, so there is nothing to do here (the two
-- stores keep the same migration names).
SELECT 1;
