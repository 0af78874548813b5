-- Indexes of the hot read queries (docs/performance.md): the run's item order (item id,
-- epoch) for paging, a generation's position and its previous/next failed generation.
-- DropIndex
DROP INDEX "Generation_runId_firstCorrect_idx";

-- CreateIndex
CREATE INDEX "Generation_runId_itemId_epoch_idx" ON "Generation"("runId", "itemId", "epoch");

-- CreateIndex
CREATE INDEX "Generation_runId_firstCorrect_itemId_epoch_idx" ON "Generation"("runId", "firstCorrect", "itemId", "epoch");

-- Search in outputs (written by hand): a pg_trgm GIN index answers LIKE '%text%' for text of
-- 3+ characters. pg_trgm is a trusted extension (PostgreSQL 13+): the store's owner may
-- create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "Generation_output_trgm_idx" ON "Generation" USING GIN ("output" gin_trgm_ops);
