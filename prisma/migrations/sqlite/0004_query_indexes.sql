-- Indexes of the hot read queries (docs/performance.md): the run's item order (item id,
-- epoch) for paging, a generation's position and its previous/next failed generation.
-- DropIndex
DROP INDEX "Generation_runId_firstCorrect_idx";

-- CreateIndex
CREATE INDEX "Generation_runId_itemId_epoch_idx" ON "Generation"("runId", "itemId", "epoch");

-- CreateIndex
CREATE INDEX "Generation_runId_firstCorrect_itemId_epoch_idx" ON "Generation"("runId", "firstCorrect", "itemId", "epoch");

-- Search in outputs (written by hand: Prisma has no full-text model for SQLite). An FTS5
-- trigram index answers LIKE '%text%' for text of 3+ characters from the index; detail=none
-- keeps it small (about a tenth of the Generation table) because only candidate rows are
-- needed: the query re-checks them with LIKE. External content: the text stays in
-- Generation once; the triggers keep the index in step with every write path (bulk load,
-- incremental runner, cascade deletes of a replaced run) inside the writer's transaction.
CREATE VIRTUAL TABLE "GenerationFts" USING fts5("output", content='Generation', content_rowid='id', tokenize='trigram', detail='none');
INSERT INTO "GenerationFts"("GenerationFts") VALUES ('rebuild');
CREATE TRIGGER "Generation_fts_insert" AFTER INSERT ON "Generation" BEGIN
  INSERT INTO "GenerationFts"(rowid, "output") VALUES (new."id", new."output");
END;
CREATE TRIGGER "Generation_fts_delete" AFTER DELETE ON "Generation" BEGIN
  INSERT INTO "GenerationFts"("GenerationFts", rowid, "output") VALUES ('delete', old."id", old."output");
END;
CREATE TRIGGER "Generation_fts_update" AFTER UPDATE OF "output" ON "Generation" BEGIN
  INSERT INTO "GenerationFts"("GenerationFts", rowid, "output") VALUES ('delete', old."id", old."output");
  INSERT INTO "GenerationFts"(rowid, "output") VALUES (new."id", new."output");
END;
