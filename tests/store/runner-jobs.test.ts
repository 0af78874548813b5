// Dashboard jobs: the same run as the CLI, started in the process, with progress and errors
// readable while it runs, one job per run key at a time, and cancellation that keeps results.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { generateDataset } from "../../lib/generate/dataset";
import { cancelJob, getJob, JobInputError, listJobs, startJob } from "../../lib/runner/jobs";
import { jobRequestSchema } from "../../lib/runner/options";
import { expectedGenerations } from "../../lib/runner/progress";
import { startFakeLlm, type FakeLlmServer } from "../helpers/fake-llm-server";
import { STORE_KINDS } from "../helpers/stores";

const text = [...generateDataset({ benchmark: "dict-sum", lengths: [4, 8], itemsPerLength: 10, seed: 21, k: 2 })].join("\n");
const until = async (ok: () => boolean, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.each(STORE_KINDS)("jobs on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  let server: FakeLlmServer;
  beforeAll(async () => {
    ({ store, drop } = await kind.create());
    server = await startFakeLlm({ p: 0.9, delayMs: 20, faults: { 4: "500" } });
  });
  afterAll(async () => {
    await server?.close();
    await drop?.();
  });

  it("runs a job to completion with progress visible, one job per run key", async () => {
    const req = jobRequestSchema.parse({
      endpoint: server.url,
      model: "fake-llm",
      runKey: `job-${kind.name}`,
      dataset: text,
      concurrency: "2",
    });
    const job = await startJob(store, req);
    expect(job).toMatchObject({ status: "running", total: 20, items: 20 });
    await expect(startJob(store, req)).rejects.toThrow(/already running/);
    await until(() => getJob(job.id)!.status !== "running");
    expect(getJob(job.id)).toMatchObject({ status: "complete", done: 20, added: 20, failed: 0, message: null });
    expect(getJob(job.id)!.retries).toBeGreaterThanOrEqual(1);
    expect(listJobs().some((j) => j.id === job.id)).toBe(true);
    const run = await store.prisma.run.findUniqueOrThrow({ where: { key: req.runKey } });
    expect(run).toMatchObject({ status: "complete", generationCount: 20, expectedItems: 20 });
    expect(expectedGenerations(run.expectedItems, JSON.parse(run.config))).toBe(20);
  });

  it("refuses a bad dataset or a missing API key variable before starting", async () => {
    const base = { endpoint: server.url, model: "fake-llm", runKey: `bad-${kind.name}` };
    await expect(startJob(store, jobRequestSchema.parse({ ...base, dataset: '{"type":"item"}' }))).rejects.toThrow(JobInputError);
    await expect(
      startJob(store, jobRequestSchema.parse({ ...base, dataset: text, apiKeyEnv: "STEPWISE_TEST_NO_SUCH_VAR" })),
    ).rejects.toThrow(/not set/);
    expect(jobRequestSchema.safeParse({ ...base, dataset: text, apiKeyEnv: "not a var" }).success).toBe(false);
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
      const job = await startJob(store, req);
      await until(() => getJob(job.id)!.done >= 2);
      expect(cancelJob(job.id)).toBe(true);
      await until(() => getJob(job.id)!.status !== "running");
      const stopped = getJob(job.id)!;
      expect(stopped.status).toBe("cancelled");
      expect(stopped.done).toBeLessThan(20);
      const again = await startJob(store, req);
      await until(() => getJob(again.id)!.status !== "running");
      expect(getJob(again.id)).toMatchObject({ status: "complete", done: 20, skipped: stopped.done });
    } finally {
      await slow.close();
    }
  });
});
