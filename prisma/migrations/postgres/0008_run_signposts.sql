-- Page signposts (docs/performance.md, "Item table"): a typed page number seeks to the
-- nearest stored key at or before its first row and skips fewer than 256 rows.
-- CreateTable
CREATE TABLE "RunSignpost" (
    "runId" INTEGER NOT NULL,
    "list" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "itemId" INTEGER NOT NULL,
    "epoch" INTEGER NOT NULL,

    CONSTRAINT "RunSignpost_pkey" PRIMARY KEY ("runId","list","position")
);

-- AddForeignKey
ALTER TABLE "RunSignpost" ADD CONSTRAINT "RunSignpost_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Signposts of the runs already stored (lib/store/signposts.ts writes them for new ones).
INSERT INTO "RunSignpost" ("runId", "list", "position", "itemId", "epoch")
SELECT "runId", 'all', "n", "itemId", "epoch" FROM (
  SELECT "runId", "itemId", "epoch", ROW_NUMBER() OVER (PARTITION BY "runId" ORDER BY "itemId", "epoch") - 1 AS "n" FROM "Generation"
) o WHERE "n" % 256 = 0;
INSERT INTO "RunSignpost" ("runId", "list", "position", "itemId", "epoch")
SELECT "runId", 'failed', "n", "itemId", "epoch" FROM (
  SELECT "runId", "itemId", "epoch", ROW_NUMBER() OVER (PARTITION BY "runId" ORDER BY "itemId", "epoch") - 1 AS "n" FROM "Generation" WHERE "firstCorrect" = false
) o WHERE "n" % 256 = 0;
