-- Study aggregates (docs/study.md): per run × length counts with the run's factor values.
-- Stored runs are re-graded and get their rows from the migrator's code step of this
-- migration (lib/store/reanalyse.ts), which runs after every SQL file has been applied.
-- CreateTable
CREATE TABLE "RunStudyStat" (
    "runId" INTEGER NOT NULL,
    "length" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,
    "firstCorrect" INTEGER NOT NULL,
    "lastCorrect" INTEGER NOT NULL,
    "exactStep" INTEGER NOT NULL,
    "modes" TEXT NOT NULL,
    "stepGenerations" INTEGER NOT NULL,
    "steps" REAL NOT NULL,
    "stepsCorrect" REAL NOT NULL,
    "stepsSq" REAL NOT NULL,
    "stepsCross" REAL NOT NULL,
    "stepsCorrectSq" REAL NOT NULL,
    "lookback" INTEGER,
    "inputRange" TEXT,
    "ops" TEXT,
    "dictSize" INTEGER,
    "k" INTEGER,
    "turnMode" TEXT,

    PRIMARY KEY ("runId", "length"),
    CONSTRAINT "RunStudyStat_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "RunStudyStat_lookback_idx" ON "RunStudyStat"("lookback");

