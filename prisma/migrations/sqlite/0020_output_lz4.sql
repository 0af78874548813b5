-- PostgreSQL's outputs are compressed by TOAST with lz4 instead of pglz from here; SQLite's are
-- zstd records of ours (lib/store/output-text.ts): nothing changes here (the two stores keep
-- the same migration names).
SELECT 1;
