-- Demo runs are marked (lib/cli/commands/demo.ts sets it at load) so the leaderboard can hide
-- them once real runs exist (docs/decisions.md, "Demo runs").
-- AlterTable
ALTER TABLE "Run" ADD COLUMN "demo" BOOLEAN NOT NULL DEFAULT false;

-- Demo runs already stored: `stepwise demo` keys them MODEL__VARIANT__demo, dates them
-- 2026-06-01T12:00:00Z and writes a simulated source (lib/generate/demo.ts).
UPDATE "Run" SET "demo" = true
WHERE "key" LIKE '%!_!_demo' ESCAPE '!'
  AND "createdAt" = '2026-06-01T12:00:00Z'
  AND "source" LIKE '%"simulated":%';
