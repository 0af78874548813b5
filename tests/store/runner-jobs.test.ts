// Dashboard jobs: queued as rows in the store, run by a worker with the same executeRun as the CLI,
// progress readable while they run, one live job per run key, cancellation that keeps results.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { generateDataset } from "../../lib/generate/dataset";
import { cancelJob, getJob, JobInputError, JobWorker, listJobs, submitJob } from "../../lib/runner/jobs";
import { jobRequestSchema } from "../../lib/runner/options";
import { expectedGenerations } from "../../lib/runner/progress";
import { startFakeLlm, type FakeLlmServer } from "../helpers/fake-llm-server";
import { STORE_KINDS } from "../helpers/stores";

const text = [...generateDataset({ benchmark: "dict-sum", lengths: [4, 8], itemsPerLength: 10, seed: 21, k: 2 })].join("\n");
const FAST = { retry: { baseDelayMs: 10, maxDelayMs: 100 } };

async function until(ok: () => boolean | Promise<boolean>, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(STORE_KINDS)("jobs on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  let server: FakeLlmServer;
  let worker: JobWorker;
  beforeAll(async () => {
    ({ store, drop } = await kind.create());
    server = await startFakeLlm({ p: 0.9, delayMs: 20, faults: { 4: "500" } });
    worker = new JobWorker(() => Promise.resolve(store), { maxJobs: 2, leaseMs: 3000, heartbeatMs: 100, pollMs: 100, clientOptions: FAST });
  });
  afterAll(async () => {
    await worker?.stop();
    await server?.close();
    await drop?.();
  });
  const job = async (id: string) => (await getJob(store, id))!;

  it("queues a job, runs it to completion with progress in the store, one live job per run key", async () => {
    const req = jobRequestSchema.parse({
      endpoint: server.url,
      model: "fake-llm",
      runKey: `job-${kind.name}`,
      dataset: text,
      concurrency: "2",
    });
    const queued = await submitJob(store, req, "token ci");
    expect(queued).toMatchObject({ status: "queued", total: 20, items: 20, createdBy: "token ci", attempts: 0 });
    await expect(submitJob(store, req, "token ci")).rejects.toThrow(/already queued as job/);
    worker.start();
    const seen = new Set<number>();
    await until(async () => {
      const j = await job(queued.id);
      if (j.status === "running") seen.add(j.done);
      return j.status !== "queued" && j.status !== "running";
    });
    expect(await job(queued.id)).toMatchObject({
      status: "complete",
      done: 20,
      added: 20,
      failed: 0,
      message: null,
      attempts: 1,
      leaseOwner: null,
    });
    expect((await job(queued.id)).retries).toBeGreaterThanOrEqual(1);
    expect(seen.size).toBeGreaterThan(1); // progress was written while it ran
    expect((await listJobs(store)).some((j) => j.id === queued.id)).toBe(true);
    expect(await store.prisma.jobDataset.count({ where: { jobId: queued.id } })).toBe(0); // the dataset goes when the job ends
    const run = await store.prisma.run.findUniqueOrThrow({ where: { key: req.runKey } });
    expect(run).toMatchObject({ status: "complete", generationCount: 20, expectedItems: 20 });
    expect(expectedGenerations(run.expectedItems, JSON.parse(run.config))).toBe(20);
    // the run key is free again once the job has ended
    const again = await submitJob(store, req, "token ci");
    await until(async () => (await job(again.id)).status === "complete");
    expect(await job(again.id)).toMatchObject({ added: 0, skipped: 20 });
  });

  it("refuses a bad dataset or a missing API key variable before queueing", async () => {
    const base = { endpoint: server.url, model: "fake-llm", runKey: `bad-${kind.name}` };
    await expect(submitJob(store, jobRequestSchema.parse({ ...base, dataset: '{"type":"item"}' }), "x")).rejects.toThrow(JobInputError);
    await expect(
      submitJob(store, jobRequestSchema.parse({ ...base, dataset: text, apiKeyEnv: "STEPWISE_TEST_NO_SUCH_VAR" }), "x"),
    ).rejects.toThrow(/not set/);
    expect(jobRequestSchema.safeParse({ ...base, dataset: text, apiKeyEnv: "not a var" }).success).toBe(false);
    expect(await store.prisma.job.count({ where: { runKey: base.runKey } })).toBe(0);
  });

  it("keeps credentials in the endpoint out of the job row's shown endpoint", async () => {
    const req = jobRequestSchema.parse({
      endpoint: server.url.replace("http://", "http://user:secret@") + "?key=abc",
      model: "fake-llm",
      runKey: `redact-${kind.name}`,
      dataset: text,
    });
    const j = await submitJob(store, req, "x");
    expect(j.endpoint).not.toMatch(/secret|abc/);
    await until(async () => (await job(j.id)).status !== "queued" && (await job(j.id)).status !== "running");
  });

  it("cancels a running job; what was stored stays and a new job resumes it", async () => {
    const slow = await startFakeLlm({ p: 1, delayMs: 40 });
    try {
      const req = jobRequestSchema.parse({
        endpoint: slow.url,
        model: "fake-llm",
        runKey: `cancel-${kind.name}`,
        dataset: text,
        concurrency: 1,
      });
      const j = await submitJob(store, req, "x");
      await until(async () => (await job(j.id)).done >= 2);
      expect(await cancelJob(store, j.id)).toBe("requested");
      await until(async () => (await job(j.id)).status !== "running");
      const stopped = await job(j.id);
      expect(stopped).toMatchObject({ status: "cancelled", cancelRequested: true });
      expect(stopped.done).toBeLessThan(20);
      expect(await cancelJob(store, j.id)).toBe("not-live");
      expect(await cancelJob(store, "no-such-job")).toBe("missing");
      const again = await submitJob(store, req, "x");
      await until(async () => (await job(again.id)).status !== "queued" && (await job(again.id)).status !== "running");
      expect(await job(again.id)).toMatchObject({ status: "complete", done: 20, skipped: stopped.done, added: 20 - stopped.done });
    } finally {
      await slow.close();
    }
  });
});
