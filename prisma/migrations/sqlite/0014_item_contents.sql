-- An item's input and reference as one compressed record shared by every run's item of the
-- same content (ItemContent, lib/store/item-content.ts), and the operand values of wrong steps
-- no longer copied into Generation.analysis (the trace diff derives them from the item's
-- operations and the step trace): together 3.5 kB of a 50-step generation's 6 kB store
-- (docs/performance.md, "Store size").
-- CreateTable
CREATE TABLE "ItemContent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "hash" BLOB NOT NULL,
    "body" BLOB NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "ItemContent_hash_key" ON "ItemContent"("hash");

-- AlterTable. Not prisma's table redefinition: inside the migration's transaction SQLite
-- cannot turn foreign keys off, and DROP TABLE "Item" would cascade to every Generation. So
-- the column is added nullable (the writer always fills it) and the old ones dropped.
ALTER TABLE "Item" ADD COLUMN "contentId" INTEGER REFERENCES "ItemContent" ("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Stored items become records, stored analyses lose their operands (lib/store/item-content-migration.ts).
-- stepwise:convert item-contents

ALTER TABLE "Item" DROP COLUMN "input";
ALTER TABLE "Item" DROP COLUMN "reference";

-- CreateIndex
CREATE INDEX "Item_contentId_idx" ON "Item"("contentId");
