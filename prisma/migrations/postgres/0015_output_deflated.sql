-- The model's output is deflated on SQLite only (lib/store/output-text.ts): PostgreSQL
-- compresses it in TOAST and its pg_trgm index searches the text column, so the new column
-- stays null here (the schemas of both stores match).
-- AlterTable
ALTER TABLE "Generation" ADD COLUMN "outputDeflated" BYTEA;
