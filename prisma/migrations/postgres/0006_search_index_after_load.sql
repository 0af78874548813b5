-- PostgreSQL's pg_trgm index is maintained by the server on every write: runs are always
-- searchable by index, the flag stays true (it exists so that both schemas match).
ALTER TABLE "Run" ADD COLUMN "searchIndexed" BOOLEAN NOT NULL DEFAULT true;
