-- Durable jobs (docs/runner.md, "Dashboard jobs"): job rows with state, progress and a lease.
-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL,
    "runKey" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "datasetName" TEXT NOT NULL,
    "items" INTEGER NOT NULL,
    "settings" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "createdBy" TEXT NOT NULL,
    "createdAt" BIGINT NOT NULL,
    "startedAt" BIGINT,
    "finishedAt" BIGINT,
    "done" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER NOT NULL DEFAULT 0,
    "added" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "retries" INTEGER NOT NULL DEFAULT 0,
    "inFlight" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "errors" TEXT NOT NULL DEFAULT '[]',
    "message" TEXT,
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "leaseOwner" TEXT,
    "leaseUntil" BIGINT,

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JobDataset" (
    "jobId" TEXT NOT NULL,
    "text" TEXT NOT NULL,

    CONSTRAINT "JobDataset_pkey" PRIMARY KEY ("jobId")
);

-- CreateIndex
CREATE INDEX "Job_status_idx" ON "Job"("status");

-- CreateIndex
CREATE INDEX "Job_createdAt_idx" ON "Job"("createdAt");

-- AddForeignKey
ALTER TABLE "JobDataset" ADD CONSTRAINT "JobDataset_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "Job"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- One live job per run key (not expressible in the Prisma schema): two processes inserting a
-- job for the same key at once cannot both succeed.
CREATE UNIQUE INDEX "Job_live_runKey_key" ON "Job"("runKey") WHERE "status" IN ('queued', 'running');


-- The write API's rate-limit buckets, shared by every server process on the store.
-- CreateTable
CREATE TABLE "RateBucket" (
    "key" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "at" BIGINT NOT NULL,
    "granted" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "RateBucket_pkey" PRIMARY KEY ("key")
);
