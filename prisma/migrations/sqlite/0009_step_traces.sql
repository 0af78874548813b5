-- A generation's steps as one compressed record (Generation.stepTrace, lib/store/step-trace.ts)
-- instead of one StepResult row per step: the rows and their primary key took more bytes
-- than the native file they came from (docs/performance.md, "Store").
-- AlterTable
ALTER TABLE "Generation" ADD COLUMN "stepTrace" BLOB;

-- The stored runs' step rows become records (lib/store/step-trace-migration.ts).
-- stepwise:convert step-results-to-traces

-- DropTable
DROP TABLE "StepResult";
