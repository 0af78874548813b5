import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { slopeBootstrapCi } from "../../lib/analysis/selfcond-ci";
import type { RunExtras, RunMetricsJson } from "../../lib/analysis/types";
import type { Store } from "../../lib/db";
import { getCurveRuns } from "../../lib/queries/curves";
import { getSelfConditioning } from "../../lib/queries/selfcond";
import { loadNative } from "../../lib/store/load";
import { modelStyle } from "../../components/charts/palette";
import { adminContext, EXAMPLES, STORE_KINDS } from "../helpers/stores";

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
});
