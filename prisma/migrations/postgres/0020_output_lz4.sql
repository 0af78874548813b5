-- Outputs are compressed by TOAST when a row passes 2 kB, and pglz (the default) was the
-- server's largest cost in a load: lz4 takes a 100,000-item load 37.8 → 32.7 s and `COPY` of the
-- same rows 15.7 → 10.9 s, for a store of 0.93× the file instead of 0.85× (docs/performance.md,
-- "Load"). Rows written before keep pglz; the server reads both. A server built without lz4
-- (or older than 14) keeps pglz: the load works as before.
DO $$
BEGIN
  EXECUTE 'ALTER TABLE "Generation" ALTER COLUMN "output" SET COMPRESSION lz4';
EXCEPTION WHEN feature_not_supported OR syntax_error THEN
  RAISE NOTICE 'outputs stay compressed with pglz: %', SQLERRM;
END
$$;
