// Jobs across server processes: each "process" here is its own store connection (a second
// better-sqlite3 handle on the same file, or a second PostgreSQL pool) with its own owner name.
// A job is taken by exactly one of them, at most maxJobs hold live leases, an expired lease is
// taken over, a lost lease cannot be renewed or finished, and a worker that dies mid-run is
// replaced by another that completes the run without storing a generation twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../lib/db";
import { generateDataset } from "../../lib/generate/dataset";
import { claimJob, finishJob, heartbeat } from "../../lib/runner/job-lease";
import { cancelJob, getJob, insertJob } from "../../lib/runner/job-queue";
import type { JobProgress } from "../../lib/runner/job-rows";
import { JobWorker } from "../../lib/runner/jobs";
import { jobRequestSchema, runSettingsSchema } from "../../lib/runner/options";
import { startFakeLlm } from "../helpers/fake-llm-server";
import { STORE_KINDS } from "../helpers/stores";

const text = [...generateDataset({ benchmark: "procedural-arith", lengths: [3, 6], itemsPerLength: 10, seed: 5 })].join("\n");
const FAST = { retry: { baseDelayMs: 10, maxDelayMs: 100 } };
const NO_PROGRESS: JobProgress = { done: 0, total: 20, added: 0, skipped: 0, failed: 0, retries: 0, inFlight: 0, errors: [] };

async function until(ok: () => Promise<boolean>, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(STORE_KINDS)("job leases on $name", (kind) => {
  let a: Store; // "process" A
  let b: Store; // "process" B: another connection to the same store
  let drop: () => Promise<void>;
  let n = 0;
  beforeAll(async () => {
    const created = await kind.create();
    a = created.store;
    b = await openStore(created.url);
    drop = async () => {
      await b.close();
      await created.drop();
    };
  });
  afterAll(async () => drop?.());

  const queue = async (runKey: string, createdAt = Date.now(), endpoint = "http://127.0.0.1:9/v1") => {
    const settings = runSettingsSchema.parse({ endpoint, model: "m", runKey });
    return insertJob(
      a,
      { id: `job-${kind.name}-${++n}`, settings, datasetName: "d.jsonl", datasetText: text, items: 20, createdBy: "t" },
      createdAt,
    );
  };
  const clearLive = async () => {
    // earlier tests' leftovers must not count against maxJobs
    await a.prisma.job.updateMany({ where: { status: { in: ["queued", "running"] } }, data: { status: "failed", leaseOwner: null } });
  };

  it("two processes claiming at once take every job exactly once", async () => {
    await clearLive();
    const ids = new Set<string>();
    for (let i = 0; i < 8; i++) ids.add((await queue(`race-${i}`)).id);
    const claims = (store: Store, owner: string) =>
      Array.from({ length: 8 }, () => claimJob(store, { owner, maxJobs: 100, leaseMs: 60_000 }).then((c) => c && { owner, id: c.view.id }));
    const got = (await Promise.all([...claims(a, "A"), ...claims(b, "B")])).filter((c) => c !== null);
    expect(got.map((c) => c.id).sort()).toEqual([...ids].sort());
    expect(new Set(got.map((c) => c.id)).size).toBe(8);
    for (const c of got) expect(await getJob(a, c.id)).toMatchObject({ status: "running", leaseOwner: c.owner, attempts: 1 });
  });

  it("at most maxJobs hold live leases over both processes; the rest wait queued", async () => {
    await clearLive();
    const t = Date.now();
    const jobs = [await queue("cap-1", t), await queue("cap-2", t + 1), await queue("cap-3", t + 2)];
    const o = { maxJobs: 2, leaseMs: 60_000 };
    const [x, y, z] = await Promise.all([
      claimJob(a, { ...o, owner: "A" }),
      claimJob(b, { ...o, owner: "B" }),
      claimJob(b, { ...o, owner: "B" }),
    ]);
    const taken = [x, y, z].filter((c) => c !== null);
    expect(taken).toHaveLength(2);
    expect(taken.map((c) => c.view.id).sort()).toEqual([jobs[0].id, jobs[1].id].sort()); // oldest first
    expect(await getJob(a, jobs[2].id)).toMatchObject({ status: "queued" });
    const first = taken[0];
    expect(await finishJob(a, first.view.leaseOwner!, first.view.id, { status: "complete", message: null, progress: NO_PROGRESS })).toBe(
      true,
    );
    const third = await claimJob(a, { ...o, owner: "A" });
    expect(third?.view.id).toBe(jobs[2].id);
    expect(third?.datasetText).toBe(text);
    expect(third?.settings.runKey).toBe("cap-3");
  });

  it("an expired lease is taken over; the old owner can neither renew nor finish it", async () => {
    await clearLive();
    const t0 = Date.now();
    const j = await queue("expire", t0);
    const o = { maxJobs: 5, leaseMs: 1000 };
    expect((await claimJob(a, { ...o, owner: "A", now: t0 }))?.view.id).toBe(j.id);
    expect(await claimJob(b, { ...o, owner: "B", now: t0 + 500 })).toBeNull(); // lease still live
    expect((await heartbeat(a, "A", j.id, { ...NO_PROGRESS, done: 3 }, 1000, t0 + 600)).held).toBe(true); // renewed to t0 + 1600
    expect(await claimJob(b, { ...o, owner: "B", now: t0 + 1500 })).toBeNull();
    const taken = await claimJob(b, { ...o, owner: "B", now: t0 + 1700 }); // A fell silent: expired
    expect(taken?.view).toMatchObject({ id: j.id, leaseOwner: "B", attempts: 2, done: 3 });
    expect(await heartbeat(a, "A", j.id, NO_PROGRESS, 1000, t0 + 1800)).toMatchObject({ held: false });
    expect(await finishJob(a, "A", j.id, { status: "failed", message: "x", progress: NO_PROGRESS })).toBe(false);
    expect(await getJob(a, j.id)).toMatchObject({ status: "running", leaseOwner: "B" });
    expect(await finishJob(b, "B", j.id, { status: "complete", message: null, progress: { ...NO_PROGRESS, done: 20 } })).toBe(true);
    expect(await getJob(a, j.id)).toMatchObject({ status: "complete", leaseOwner: null, done: 20 });
  });

  it("cancel: a queued job at once, a running one through its owner's heartbeat, a dead owner's by the next claimer", async () => {
    await clearLive();
    const q = await queue("cancel-queued");
    expect(await cancelJob(b, q.id)).toBe("cancelled");
    expect(await getJob(a, q.id)).toMatchObject({ status: "cancelled" });
    expect(await a.prisma.jobDataset.count({ where: { jobId: q.id } })).toBe(0);
    expect(await claimJob(a, { owner: "A", maxJobs: 5, leaseMs: 1000 })).toBeNull(); // nothing left to run

    const t0 = Date.now();
    const r = await queue("cancel-running", t0);
    await claimJob(a, { owner: "A", maxJobs: 5, leaseMs: 1000, now: t0 });
    expect(await cancelJob(b, r.id)).toBe("requested");
    expect(await heartbeat(a, "A", r.id, NO_PROGRESS, 1000, t0 + 100)).toMatchObject({ held: true, cancelRequested: true });
    // A dies before acting on it: the next claimer ends the job instead of running it
    expect(await claimJob(b, { owner: "B", maxJobs: 5, leaseMs: 1000, now: t0 + 2000 })).toBeNull();
    expect(await getJob(a, r.id)).toMatchObject({ status: "cancelled", leaseOwner: null });
    expect(await cancelJob(b, r.id)).toBe("not-live");
  });

  it("one live job per run key, even when two processes queue it at once", async () => {
    await clearLive();
    const settings = runSettingsSchema.parse({ endpoint: "http://127.0.0.1:9/v1", model: "m", runKey: "same-key" });
    const make = (store: Store, id: string) =>
      insertJob(store, { id, settings, datasetName: "d", datasetText: text, items: 20, createdBy: "t" }).then(
        () => "ok",
        (e: Error) => e.message,
      );
    const out = await Promise.all([make(a, `same-a-${kind.name}`), make(b, `same-b-${kind.name}`)]);
    expect(out.filter((o) => o === "ok")).toHaveLength(1);
    expect(out.find((o) => o !== "ok")).toMatch(/run same-key is already queued as job same-/);
  });

  it("a worker that dies mid-run is replaced after its lease expires; the run completes with each generation stored once", async () => {
    await clearLive();
    const llm = await startFakeLlm({ p: 1, delayMs: 60 });
    const opts = { maxJobs: 2, leaseMs: 1500, heartbeatMs: 100, pollMs: 100, clientOptions: FAST };
    const wa = new JobWorker(() => Promise.resolve(a), { ...opts, owner: "A" });
    const wb = new JobWorker(() => Promise.resolve(b), { ...opts, owner: "B" });
    try {
      const req = jobRequestSchema.parse({
        endpoint: llm.url,
        model: "fake-llm",
        runKey: `die-${kind.name}`,
        dataset: text,
        concurrency: 1,
      });
      const { dataset, datasetName, ...settings } = req;
      const j = await insertJob(a, { id: `die-${kind.name}`, settings, datasetName, datasetText: dataset, items: 20, createdBy: "t" });
      wa.start();
      await until(async () => (await getJob(a, j.id))!.done >= 3);
      wb.start(); // B polls while A holds a live lease: it must not run the job
      await new Promise((r) => setTimeout(r, 400));
      expect(wb.runningHere()).toEqual([]);
      const requestsBefore = llm.stats.requests;
      await wa.stop({ release: false }); // A "dies": no more heartbeats, no final write
      const diedAt = Date.now();
      await until(async () => wb.runningHere().includes(j.id), 10_000);
      expect(Date.now() - diedAt).toBeGreaterThan(500); // B waited for the lease to expire
      await until(async () => (await getJob(a, j.id))!.status === "complete");
      const done = (await getJob(a, j.id))!;
      expect(done).toMatchObject({ status: "complete", done: 20, attempts: 2, leaseOwner: null });
      expect(await a.prisma.generation.count({ where: { run: { key: req.runKey } } })).toBe(20);
      // B sent only what A had not stored (A's in-flight request at its death may be sent twice)
      expect(llm.stats.requests - requestsBefore).toBeLessThanOrEqual(20 - 3 + 2);
    } finally {
      await wa.stop();
      await wb.stop();
      await llm.close();
    }
  });

  it("a worker stopping cleanly hands its job back and another resumes it at once", async () => {
    await clearLive();
    const llm = await startFakeLlm({ p: 1, delayMs: 60 });
    const opts = { maxJobs: 2, leaseMs: 60_000, heartbeatMs: 100, pollMs: 100, clientOptions: FAST };
    const wa = new JobWorker(() => Promise.resolve(a), { ...opts, owner: "A2" });
    const wb = new JobWorker(() => Promise.resolve(b), { ...opts, owner: "B2" });
    try {
      const req = jobRequestSchema.parse({
        endpoint: llm.url,
        model: "fake-llm",
        runKey: `release-${kind.name}`,
        dataset: text,
        concurrency: 1,
      });
      const { dataset, datasetName, ...settings } = req;
      const j = await insertJob(a, { id: `release-${kind.name}`, settings, datasetName, datasetText: dataset, items: 20, createdBy: "t" });
      wa.start();
      await until(async () => (await getJob(a, j.id))!.done >= 2);
      await wa.stop({ release: true });
      wb.start();
      await until(async () => (await getJob(a, j.id))!.status === "complete", 15_000); // far less than the 60 s lease
      expect(await getJob(a, j.id)).toMatchObject({ attempts: 2, done: 20 });
    } finally {
      await wa.stop();
      await wb.stop();
      await llm.close();
    }
  });
});
