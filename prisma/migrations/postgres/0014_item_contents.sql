-- An item's input and reference as one compressed record shared by every run's item of the
-- same content (ItemContent, lib/store/item-content.ts), and the operand values of wrong steps
-- no longer copied into Generation.analysis (the trace diff derives them from the item's
-- operations and the step trace): together 3.5 kB of a 50-step generation's 6 kB store
-- (docs/performance.md, "Store size").
-- CreateTable
CREATE TABLE "ItemContent" (
    "id" SERIAL NOT NULL,
    "hash" BYTEA NOT NULL,
    "body" BYTEA NOT NULL,
    CONSTRAINT "ItemContent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ItemContent_hash_key" ON "ItemContent"("hash");

-- AlterTable
ALTER TABLE "Item" ADD COLUMN "contentId" INTEGER;

-- Stored items become records, stored analyses lose their operands (lib/store/item-content-migration.ts).
-- stepwise:convert item-contents

-- AlterTable
ALTER TABLE "Item" DROP COLUMN "input",
DROP COLUMN "reference",
ALTER COLUMN "contentId" SET NOT NULL;

-- CreateIndex
CREATE INDEX "Item_contentId_idx" ON "Item"("contentId");

-- AddForeignKey
ALTER TABLE "Item" ADD CONSTRAINT "Item_contentId_fkey" FOREIGN KEY ("contentId") REFERENCES "ItemContent"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
