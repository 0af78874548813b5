-- ANALYZE of Generation, which every load now runs in its transaction, spent ~40% of its time on
-- the statistics of wide columns no query filters, joins or sorts by (the analysis record, the
-- statuses, the given answers, metadata, the answers' texts, the old records): a target of 0
-- leaves them out (248 → 145 ms at 100,000 items; docs/performance.md, "Load"). The output keeps
-- its statistics: the search's check matches it with a regular expression, which the planner
-- estimates from them.
ALTER TABLE "Generation"
  ALTER COLUMN "analysis" SET STATISTICS 0,
  ALTER COLUMN "statuses" SET STATISTICS 0,
  ALTER COLUMN "given" SET STATISTICS 0,
  ALTER COLUMN "metadata" SET STATISTICS 0,
  ALTER COLUMN "firstAnswer" SET STATISTICS 0,
  ALTER COLUMN "lastAnswer" SET STATISTICS 0,
  ALTER COLUMN "stepTrace" SET STATISTICS 0,
  ALTER COLUMN "outputDeflated" SET STATISTICS 0;
