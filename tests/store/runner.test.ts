// `stepwise run` end to end against a real HTTP server on 127.0.0.1 (tests/helpers/
// fake-llm-server.ts): every generation stored exactly once, faults survived, the measured step
// reliability is the configured one, and an in-process resume adds nothing. The fake model is
// deterministic in (seed, prompt), so the measured numbers are fixed: the tolerances below are
// several standard errors wide and cannot flake.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { generateDataset } from "../../lib/generate/dataset";
import { readDataset } from "../../lib/runner/dataset";
import { runSettingsSchema } from "../../lib/runner/options";
import { executeRun } from "../../lib/runner/run";
import { RunConflictError } from "../../lib/store/incremental";
import { startFakeLlm, type FakeLlmServer } from "../helpers/fake-llm-server";
import { STORE_KINDS, storedMetrics } from "../helpers/stores";
import { storedOutput } from "../../lib/store/output-text";
import { outputCandidates } from "../../lib/store/search-candidates";
import { searchIndexExact } from "../helpers/search-index";

const dataset = (opts: Parameters<typeof generateDataset>[0]) => readDataset("test.jsonl", [...generateDataset(opts)].join("\n") + "\n");
const FAST = { retry: { baseDelayMs: 10, maxDelayMs: 100 } };

async function storedCounts(store: Store, key: string) {
  const run = await store.prisma.run.findUniqueOrThrow({ where: { key } });
  const gens = await store.prisma.generation.findMany({ where: { runId: run.id }, select: { itemKey: true, epoch: true } });
  return { run, total: gens.length, distinct: new Set(gens.map((g) => `${g.itemKey}#${g.epoch}`)).size };
}

describe.each(STORE_KINDS)("stepwise run on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  let server: FakeLlmServer;
  beforeAll(async () => {
    ({ store, drop } = await kind.create());
    server = await startFakeLlm({
      p: 0.97,
      seed: 7,
      retryAfterSeconds: 1,
      faults: { 3: "429", 9: "500", 14: "hang", 20: "malformed", 27: "429-date", 33: "500", 41: "no-content", 60: "500", 61: "500" },
    });
  });
  afterAll(async () => {
    await server?.close();
    await drop?.();
  });

  it("runs 200 arith items: each stored once, faults survived, p̂ ≈ p", async () => {
    const ds = await dataset({ benchmark: "procedural-arith", lengths: [5, 15, 25, 35, 45], itemsPerLength: 40, seed: 11 });
    const settings = runSettingsSchema.parse({
      endpoint: server.url,
      model: "fake-llm",
      runKey: "fake__arith",
      concurrency: 6,
      timeoutMs: 1500,
      refreshEvery: 30,
    });
    const seen: number[] = [];
    const p = await executeRun(store, { settings, dataset: ds, clientOptions: FAST, onProgress: (q) => seen.push(q.done) });
    expect(p).toMatchObject({ status: "complete", done: 200, total: 200, added: 200, failed: 0 });
    expect(p.retries).toBeGreaterThanOrEqual(9); // one per scripted fault
    expect(Object.values(server.stats.faults).reduce((a, b) => a + b, 0)).toBe(9);
    const c = await storedCounts(store, "fake__arith");
    expect(c).toMatchObject({ total: 200, distinct: 200 });
    expect(c.run).toMatchObject({ status: "complete", itemCount: 200, generationCount: 200, expectedItems: 200 });
    const m = await storedMetrics(store, "fake__arith");
    // 5,000 reference steps: SE of p̂ ≈ 0.0024
    expect(Math.abs(m!.reliability!.p - 0.97)).toBeLessThan(0.015);
    const g = await store.prisma.generation.findFirstOrThrow({ where: { runId: c.run.id } });
    expect(g.promptTokens).toBeGreaterThan(0);
    expect(g.costUsd).toBe(0); // fake-llm is in the built-in price table at 0
    expect(JSON.parse(g.metadata!)).toMatchObject({ runner: { requests: 1 } });
    expect(Math.max(...seen)).toBe(200);
    // written out of order by concurrent requests, numbered in item order once complete
    const order = await store.prisma.generation.findMany({
      where: { runId: c.run.id },
      select: { ordinal: true },
      orderBy: [{ itemId: "asc" }, { epoch: "asc" }],
    });
    expect(order.map((x) => x.ordinal)).toEqual(order.map((_, i) => i + 1));
    // and given its page signposts (200 generations: the first of each list)
    const signposts = await store.prisma.runSignpost.findMany({ where: { runId: c.run.id }, orderBy: { list: "asc" } });
    expect(signposts.map((s) => [s.list, s.position])).toEqual([
      ["all", 0],
      ["failed", 0],
    ]);
    // searchable as it was written, one generation at a time: the index holds what a load's would
    expect(await searchIndexExact(store)).toBe(true);
    const text = storedOutput(g.output, g.outputDeflated);
    const candidates = await outputCandidates(store, c.run.id, text.slice(0, 40));
    expect(candidates).toContain(g.id);
  });

  it("resumes without duplicates: a second run of the same key sends nothing", async () => {
    const before = server.stats.requests;
    const ds = await dataset({ benchmark: "procedural-arith", lengths: [5, 15, 25, 35, 45], itemsPerLength: 40, seed: 11 });
    const settings = runSettingsSchema.parse({ endpoint: server.url, model: "fake-llm", runKey: "fake__arith" });
    const p = await executeRun(store, { settings, dataset: ds, clientOptions: FAST });
    expect(p).toMatchObject({ status: "complete", added: 0, skipped: 200, done: 200 });
    expect(server.stats.requests).toBe(before);
    expect((await storedCounts(store, "fake__arith")).total).toBe(200);
  });

  it("refuses to resume a run key holding another model's run", async () => {
    const ds = await dataset({ benchmark: "procedural-arith", lengths: [5], itemsPerLength: 2, seed: 11 });
    const settings = runSettingsSchema.parse({ endpoint: server.url, model: "other-model", runKey: "fake__arith" });
    await expect(executeRun(store, { settings, dataset: ds })).rejects.toThrow(RunConflictError);
  });

  it("runs multi-turn dict-sum with thinking: history stripped, p̂ ≈ p", async () => {
    const think = await startFakeLlm({ p: 0.95, seed: 3, thinking: true });
    try {
      const ds = await dataset({ benchmark: "dict-sum", lengths: [10, 30], itemsPerLength: 30, seed: 12 });
      const settings = runSettingsSchema.parse({ endpoint: think.url, model: "fake-llm", runKey: "fake__ds", concurrency: 8, epochs: 2 });
      const p = await executeRun(store, { settings, dataset: ds, clientOptions: FAST });
      expect(p).toMatchObject({ status: "complete", done: 120, failed: 0 });
      expect(think.stats.requests).toBe(2 * 30 * (10 + 30)); // one request per turn
      expect(think.stats.thinkInHistory).toBe(0);
      const c = await storedCounts(store, "fake__ds");
      expect(c).toMatchObject({ total: 120, distinct: 120 });
      const out = await store.prisma.generation.findFirstOrThrow({ where: { runId: c.run.id } });
      expect(JSON.parse(storedOutput(out.output, out.outputDeflated))[0]).toContain("<think>"); // the stored output keeps it
      // 2,400 steps: SE ≈ 0.0045
      expect(Math.abs((await storedMetrics(store, "fake__ds"))!.reliability!.p - 0.95)).toBeLessThan(0.025);
    } finally {
      await think.close();
    }
  });

  it("keeps a run incomplete (running) when a request fails for good, and finishes it on resume", async () => {
    const flaky = await startFakeLlm({ p: 1, faults: { 1: "500", 2: "500" } });
    try {
      const ds = await dataset({ benchmark: "procedural-arith", lengths: [5], itemsPerLength: 5, seed: 13 });
      const settings = runSettingsSchema.parse({
        endpoint: flaky.url,
        model: "fake-llm",
        runKey: "fake__flaky",
        concurrency: 1,
        maxRetries: 1,
      });
      const first = await executeRun(store, { settings, dataset: ds, clientOptions: FAST });
      expect(first).toMatchObject({ status: "failed", failed: 1, done: 4 });
      expect(first.errors[0]).toMatch(/HTTP 500.*gave up after 2 attempts/);
      expect((await storedCounts(store, "fake__flaky")).run.status).toBe("running");
      const second = await executeRun(store, { settings, dataset: ds, clientOptions: FAST });
      expect(second).toMatchObject({ status: "complete", added: 1, skipped: 4, done: 5 });
    } finally {
      await flaky.close();
    }
  });

  it("stops at once on a 401 instead of failing every item", async () => {
    const locked = await startFakeLlm({ p: 1, apiKey: "right" });
    try {
      const ds = await dataset({ benchmark: "procedural-arith", lengths: [5], itemsPerLength: 20, seed: 14 });
      const settings = runSettingsSchema.parse({ endpoint: locked.url, model: "fake-llm", runKey: "fake__locked", concurrency: 1 });
      const p = await executeRun(store, { settings, dataset: ds, apiKey: "wrong" });
      expect(p.status).toBe("failed");
      expect(p.failed).toBe(1);
      expect(locked.stats.requests).toBe(1);
    } finally {
      await locked.close();
    }
  });
});
