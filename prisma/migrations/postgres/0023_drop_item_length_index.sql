-- Item's (runId, length) index, from the first schema, serves no query any more: items are
-- filtered and ordered by length through Generation's own columns and indexes, and read one
-- by one through (runId, key); a load kept it up to date for every item it wrote
-- (docs/decisions.md, "Item's (runId, length) index is gone").
DROP INDEX "Item_runId_length_idx";
