-- Generation's foreign key to its item goes on PostgreSQL: the server checked it with a query of
-- its own for every generation a load wrote (and locked the item's row for it), ~10% of its CPU
-- in a load (5.64 → 5.08 s at 100,000 items; the load 11.17 → 10.59 s; docs/decisions.md,
-- "A run's rows hold no foreign key to it on PostgreSQL"). What it gave is kept otherwise: a
-- generation is written in the transaction that writes its item (a load) or under the run's
-- lock (`holdRun`, `stepwise run`), item ids are never changed, and items are only deleted
-- with their run, after its generations (the "Run_rows_delete" trigger, deleteRun's slices).
-- Item's key to its content record stays.
ALTER TABLE "Generation" DROP CONSTRAINT IF EXISTS "Generation_itemId_fkey";
