-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Model" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "family" TEXT,
    "paramsB" DOUBLE PRECISION,
    "thinking" BOOLEAN,

    CONSTRAINT "Model_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Benchmark" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "Benchmark_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Variant" (
    "id" SERIAL NOT NULL,
    "benchmarkId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "params" TEXT NOT NULL,

    CONSTRAINT "Variant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Run" (
    "id" SERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "modelId" INTEGER NOT NULL,
    "variantId" INTEGER NOT NULL,
    "benchmark" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "variantJson" TEXT NOT NULL,
    "createdAt" TEXT,
    "loadedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status" TEXT NOT NULL DEFAULT 'complete',
    "itemCount" INTEGER NOT NULL,
    "generationCount" INTEGER NOT NULL,
    "expectedItems" INTEGER,
    "maxLength" INTEGER NOT NULL,
    "hasSteps" BOOLEAN NOT NULL,
    "selfConditioning" BOOLEAN NOT NULL DEFAULT false,
    "h50" DOUBLE PRECISION,
    "h50Lo" DOUBLE PRECISION,
    "h50Hi" DOUBLE PRECISION,
    "h50Censored" BOOLEAN,
    "h80" DOUBLE PRECISION,
    "l50" DOUBLE PRECISION,
    "l50Lo" DOUBLE PRECISION,
    "l50Hi" DOUBLE PRECISION,
    "l80" DOUBLE PRECISION,
    "p" DOUBLE PRECISION,
    "firstAccuracy" DOUBLE PRECISION,
    "lastAccuracy" DOUBLE PRECISION,
    "scSlope" DOUBLE PRECISION,
    "metrics" TEXT NOT NULL,
    "extras" TEXT NOT NULL,

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Item" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "length" INTEGER NOT NULL,
    "input" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "inducedErrorRate" DOUBLE PRECISION,

    CONSTRAINT "Item_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Generation" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "itemId" INTEGER NOT NULL,
    "itemKey" TEXT NOT NULL,
    "length" INTEGER NOT NULL,
    "epoch" INTEGER NOT NULL DEFAULT 0,
    "output" TEXT NOT NULL,
    "firstAnswer" TEXT,
    "lastAnswer" TEXT,
    "firstCorrect" BOOLEAN NOT NULL,
    "lastCorrect" BOOLEAN NOT NULL,
    "firstDivergence" INTEGER,
    "divergenceKind" TEXT,
    "modes" INTEGER NOT NULL,
    "clean" BOOLEAN NOT NULL,
    "statuses" TEXT NOT NULL,
    "analysis" TEXT NOT NULL,
    "promptTokens" INTEGER,
    "completionTokens" INTEGER,
    "latencyMs" DOUBLE PRECISION,
    "costUsd" DOUBLE PRECISION,
    "metadata" TEXT,

    CONSTRAINT "Generation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StepResult" (
    "generationId" INTEGER NOT NULL,
    "step" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "expected" TEXT NOT NULL,
    "claimed" TEXT,
    "recomputed" TEXT,
    "spanStart" INTEGER,
    "spanEnd" INTEGER,

    CONSTRAINT "StepResult_pkey" PRIMARY KEY ("generationId","step")
);

-- CreateTable
CREATE TABLE "RunLengthStat" (
    "runId" INTEGER NOT NULL,
    "length" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,
    "firstCorrect" INTEGER NOT NULL,
    "lastCorrect" INTEGER NOT NULL,
    "modes" TEXT NOT NULL,

    CONSTRAINT "RunLengthStat_pkey" PRIMARY KEY ("runId","length")
);

-- CreateTable
CREATE TABLE "RunStepStat" (
    "runId" INTEGER NOT NULL,
    "step" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,
    "taskCorrect" INTEGER NOT NULL,
    "stepCorrect" INTEGER NOT NULL,
    "firstDivergences" INTEGER NOT NULL,

    CONSTRAINT "RunStepStat_pkey" PRIMARY KEY ("runId","step")
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Model_name_key" ON "Model"("name");

-- CreateIndex
CREATE UNIQUE INDEX "Benchmark_name_key" ON "Benchmark"("name");

-- CreateIndex
CREATE UNIQUE INDEX "Variant_benchmarkId_name_key" ON "Variant"("benchmarkId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Run_key_key" ON "Run"("key");

-- CreateIndex
CREATE INDEX "Run_benchmark_idx" ON "Run"("benchmark");

-- CreateIndex
CREATE INDEX "Run_variantId_idx" ON "Run"("variantId");

-- CreateIndex
CREATE INDEX "Run_modelId_idx" ON "Run"("modelId");

-- CreateIndex
CREATE INDEX "Item_runId_length_idx" ON "Item"("runId", "length");

-- CreateIndex
CREATE UNIQUE INDEX "Item_runId_key_key" ON "Item"("runId", "key");

-- CreateIndex
CREATE INDEX "Generation_runId_itemKey_idx" ON "Generation"("runId", "itemKey");

-- CreateIndex
CREATE INDEX "Generation_runId_length_idx" ON "Generation"("runId", "length");

-- CreateIndex
CREATE INDEX "Generation_runId_firstCorrect_idx" ON "Generation"("runId", "firstCorrect");

-- CreateIndex
CREATE INDEX "Generation_runId_firstDivergence_idx" ON "Generation"("runId", "firstDivergence");

-- CreateIndex
CREATE UNIQUE INDEX "Generation_itemId_epoch_key" ON "Generation"("itemId", "epoch");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_hash_key" ON "ApiToken"("hash");

-- AddForeignKey
ALTER TABLE "Variant" ADD CONSTRAINT "Variant_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "Benchmark"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "Model"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_variantId_fkey" FOREIGN KEY ("variantId") REFERENCES "Variant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Item" ADD CONSTRAINT "Item_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Generation" ADD CONSTRAINT "Generation_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Generation" ADD CONSTRAINT "Generation_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "Item"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StepResult" ADD CONSTRAINT "StepResult_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunLengthStat" ADD CONSTRAINT "RunLengthStat_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunStepStat" ADD CONSTRAINT "RunStepStat_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

