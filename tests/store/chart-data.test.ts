import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { slopeBootstrapCi } from "../../lib/analysis/selfcond-ci";
import type { RunExtras, RunMetricsJson } from "../../lib/analysis/types";
import type { Store } from "../../lib/db";
import { generateRun } from "../../lib/generate/dataset";
import { demoRunOptions } from "../../lib/generate/demo";
import { pairStats } from "../../lib/queries/compare-sql";
import { getCurveRuns } from "../../lib/queries/curves";
import { getSelfConditioning } from "../../lib/queries/selfcond";
import { loadNative } from "../../lib/store/load";
import { modelStyle } from "../../components/charts/palette";
import { EXAMPLES } from "../helpers/fixtures";
import { adminContext, runAccess, STORE_KINDS } from "../helpers/stores";

// What the charts read from a real store: the self-conditioning slope's bootstrap interval is
// stored at load beside the slope (and recomputed the same way for a run stored without it),
// and every series carries its model's id, from which its colour and marker follow.

vi.mock("server-only", () => ({}));

const loadExample = (store: Store, name: string) => loadNative(store, name, fs.createReadStream(path.join(EXAMPLES, name)));

describe.each(STORE_KINDS)("chart data on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ store, drop } = await kind.create());
    expect((await loadExample(store, "selfcond-small.jsonl")).errors).toEqual([]);
    expect((await loadExample(store, "arith-small.jsonl")).errors).toEqual([]);
    // Two simulated models on the same items (the demo's first variant), for the paired compare.
    const text = demoRunOptions()
      .slice(0, 2)
      .map((o) => {
        const { header, items } = generateRun(o);
        return [JSON.stringify(header), ...[...items()].map((i) => JSON.stringify(i))].join("\n") + "\n";
      })
      .join("");
    expect((await loadNative(store, "demo.jsonl", [text], { demo: true })).errors).toEqual([]);
  });
  afterAll(async () => drop?.());

  it("stores the slope interval at load and serves it with the slope", async () => {
    const runs = await store.prisma.run.findMany({ where: { selfConditioning: true }, select: { key: true, metrics: true, extras: true } });
    expect(runs.length).toBe(2);
    const data = await getSelfConditioning(adminContext(store), []);
    for (const r of runs) {
      const sc = (JSON.parse(r.metrics) as RunMetricsJson).self_conditioning!;
      const stored = (JSON.parse(r.extras) as RunExtras).self_conditioning_slope_ci;
      expect(stored).toEqual(slopeBootstrapCi(sc.points));
      const [lo, hi] = stored!;
      expect(lo).toBeLessThanOrEqual(sc.slope!);
      expect(hi).toBeGreaterThanOrEqual(sc.slope!);
      const row = data.runs.find((x) => x.key === r.key)!;
      expect(row.slopeCi).toEqual(stored);
      expect(row.modelId).toBeGreaterThan(0);
    }
  });

  it("recomputes the interval for a run stored before it was stored", async () => {
    const run = await store.prisma.run.findFirstOrThrow({
      where: { selfConditioning: true },
      select: { id: true, key: true, extras: true },
    });
    const extras = JSON.parse(run.extras) as RunExtras;
    const ci = extras.self_conditioning_slope_ci;
    delete extras.self_conditioning_slope_ci;
    await store.prisma.run.update({ where: { id: run.id }, data: { extras: JSON.stringify(extras) } });
    const row = (await getSelfConditioning(adminContext(store), [])).runs.find((x) => x.key === run.key)!;
    expect(row.slopeCi).toEqual(ci);
  });

  it("gives runs of one model one style and other models other ones", async () => {
    const keys = (await store.prisma.run.findMany({ select: { key: true }, orderBy: { key: "asc" } })).map((r) => r.key);
    const data = await getCurveRuns(adminContext(store), keys);
    const byModel = new Map<string, number>();
    for (const r of data.runs) {
      if (byModel.has(r.model)) expect(r.modelId).toBe(byModel.get(r.model));
      byModel.set(r.model, r.modelId);
    }
    const pairs = [...byModel.values()].map((id) => `${modelStyle(id).color} ${modelStyle(id).marker}`);
    expect(new Set(pairs).size).toBe(byModel.size);
  });

  it("compare's per-length rows carry the paired counts their intervals need, adding up to the pair's table", async () => {
    const ctx = adminContext(store);
    const [a, b] = demoRunOptions()
      .slice(0, 2)
      .map((o) => o.runKey!);
    const stats = await pairStats(ctx, await runAccess(ctx, a), await runAccess(ctx, b), "first");
    expect(stats.byLength.length).toBeGreaterThan(0);
    const sum = { both: 0, onlyA: 0, onlyB: 0 };
    for (const r of stats.byLength) {
      expect(r.both + r.onlyA + r.onlyB).toBeLessThanOrEqual(r.n);
      expect(r.accA).toBeCloseTo((r.both + r.onlyA) / r.n, 12);
      expect(r.accB).toBeCloseTo((r.both + r.onlyB) / r.n, 12);
      sum.both += r.both;
      sum.onlyA += r.onlyA;
      sum.onlyB += r.onlyB;
    }
    expect(sum).toEqual({ both: stats.table.both, onlyA: stats.table.onlyA, onlyB: stats.table.onlyB });
  });
});
