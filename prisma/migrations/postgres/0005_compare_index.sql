-- Compare (lib/queries/compare-items.ts): a page of one outcome class walks run A's epoch-0
-- generations in (length, load order) and stops after the page. (runId, length) served that
-- on SQLite, whose indexes end in the rowid, but not on PostgreSQL, which then joined both
-- runs whole and sorted them for every page (docs/performance.md).
-- CreateIndex
CREATE INDEX "Generation_runId_epoch_length_id_idx" ON "Generation"("runId", "epoch", "length", "id");
