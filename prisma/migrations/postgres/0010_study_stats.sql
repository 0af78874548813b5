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
    "steps" DOUBLE PRECISION NOT NULL,
    "stepsCorrect" DOUBLE PRECISION NOT NULL,
    "stepsSq" DOUBLE PRECISION NOT NULL,
    "stepsCross" DOUBLE PRECISION NOT NULL,
    "stepsCorrectSq" DOUBLE PRECISION NOT NULL,
    "lookback" INTEGER,
    "inputRange" TEXT,
    "ops" TEXT,
    "dictSize" INTEGER,
    "k" INTEGER,
    "turnMode" TEXT,

    CONSTRAINT "RunStudyStat_pkey" PRIMARY KEY ("runId","length")
);

-- CreateIndex
CREATE INDEX "RunStudyStat_lookback_idx" ON "RunStudyStat"("lookback");

-- AddForeignKey
ALTER TABLE "RunStudyStat" ADD CONSTRAINT "RunStudyStat_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
