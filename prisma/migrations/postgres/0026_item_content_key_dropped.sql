-- Item's foreign key to its content record goes on PostgreSQL: the server checked it with a
-- query of its own for every item a load wrote, ~12% of its CPU in a load (3 alternating
-- rounds at 100,000 items: 4.48 → 3.96 s; the load 9.25 → 8.77 s; docs/decisions.md, "A run's
-- rows hold no foreign key to it on PostgreSQL"). What its RESTRICT gave is kept otherwise: a
-- load locks the records other runs wrote that it uses (`FOR KEY SHARE`) until it commits, and
-- a delete of unused records locks them first (`FOR UPDATE`, in the same order), so it waits
-- for such a load and keeps what the load's items use (lib/store/item-content.ts).
ALTER TABLE "Item" DROP CONSTRAINT IF EXISTS "Item_contentId_fkey";
