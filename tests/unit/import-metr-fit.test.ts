import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hierarchicalResample, weightedFit, type WeightedRow } from "../../lib/analysis/weighted-fit";
import { mulberry32, percentileSorted } from "../../lib/analysis/stats";
import { taskWeights } from "../../lib/import/metr";
import { metrRuns } from "../fixtures/import/generate";
import { describeRealdata, REALDATA } from "../helpers/shared-data";

const METR = path.join(REALDATA, "metr-cross-domain-horizon");
const csv = (file: string) => {
  const [head, ...rows] = fs.readFileSync(path.join(METR, file), "utf8").trim().split("\n");
  const cols = head.split(",");
  return rows.map((r) => Object.fromEntries(r.split(",").map((v, i) => [cols[i], v])));
};

function rowsFor(alias: string): WeightedRow[] {
  const runs = metrRuns().filter((r) => r.alias === alias);
  const w = taskWeights(
    runs.map((r) => ({ task: r.task_id, family: r.task_family })),
    "invsqrt_task_weight",
  );
  return runs.map((r, i) => ({ length: r.human_minutes, y: r.score_binarized, w: w[i], family: r.task_family, task: r.task_id }));
}

describe("METR's time-horizon fit", () => {
  it("weights like compute_task_weights: 1/runs per task, 1/√tasks per family, summing to 1", () => {
    const rows = [
      { task: "a1", family: "a" },
      { task: "a1", family: "a" },
      { task: "a2", family: "a" },
      { task: "b1", family: "b" },
    ];
    const inv = taskWeights(rows, "invsqrt_task_weight");
    const raw = [0.5 / Math.SQRT2, 0.5 / Math.SQRT2, 1 / Math.SQRT2, 1];
    const s = raw.reduce((a, b) => a + b, 0);
    inv.forEach((w, i) => expect(w).toBeCloseTo(raw[i] / s, 12));
    expect(taskWeights(rows, "equal_task_weight")).toEqual([0.5 / 3, 0.5 / 3, 1 / 3, 1 / 3]);
  });

  it("solves scikit-learn's objective: C·Σ w·logloss + a²/2, intercept free (gradient ≈ 0)", () => {
    const rows = rowsFor("Sim Agent A");
    const f = weightedFit(rows, { resamples: 10 })!;
    let ga = f.slope / 10; // ∂/∂a of a²/(2C) with C = 10, after dividing the objective by C
    let gb = 0;
    for (const r of rows) {
      const x = Math.log2(r.length);
      const p = 1 / (1 + Math.exp(-(f.slope * x + f.intercept)));
      ga += r.w * (p - r.y) * x;
      gb += r.w * (p - r.y);
    }
    expect(Math.abs(ga)).toBeLessThan(1e-7);
    expect(Math.abs(gb)).toBeLessThan(1e-7);
    expect(f.slope).toBeLessThan(0);
    expect(f.l50).toBeCloseTo(2 ** (-f.intercept / f.slope), 9);
    expect(f.l80).toBeCloseTo(2 ** ((Math.log(4) - f.intercept) / f.slope), 9);
  });

  describeRealdata("METR's published fits", () => {
    it("reads METR's headline fits the same way: p50 = 2^(−intercept/coefficient)", () => {
      const fits = csv("logistic_fits_headline.csv").filter((r) => r.agent !== "human" && Number(r.coefficient) < 0);
      expect(fits.length).toBeGreaterThan(10);
      for (const r of fits) {
        expect(2 ** (-Number(r.intercept) / Number(r.coefficient)) / Number(r.p50), r.agent).toBeCloseTo(1, 5);
      }
      const sonnet = fits.find((r) => r.agent === "Claude 3.7 Sonnet")!;
      expect(Number(sonnet.p50)).toBeCloseTo(54.23, 1);
    });

    it("takes CIs as linearly interpolated 2.5/97.5 percentiles, which reproduces METR's headline CIs", () => {
      const fits = csv("logistic_fits_headline.csv");
      const boot = csv("bootstrap_headline.csv");
      let checked = 0;
      for (const r of fits) {
        const col = `${r.agent}_p50`;
        if (!(col in boot[0]) || r["p50q0.025"] === "") continue;
        const v = Float64Array.from(boot.map((b) => (b[col] === "" ? NaN : Number(b[col]))).filter((x) => !Number.isNaN(x))).sort();
        expect(percentileSorted(v, 0.025) / Number(r["p50q0.025"]), r.agent).toBeCloseTo(1, 3); // the CSV rounds tiny values
        expect(percentileSorted(v, 0.975) / Number(r["p50q0.975"]), r.agent).toBeCloseTo(1, 3);
        checked++;
      }
      expect(checked).toBeGreaterThanOrEqual(16);
    });
  });

  it("resamples family → task → run, keeping the data's size in expectation and tasks inside families", () => {
    const rows = rowsFor("Sim Agent B");
    const fam = new Map<string, Map<string, number[]>>();
    rows.forEach((r, i) => {
      const t = fam.get(r.family) ?? fam.set(r.family, new Map()).get(r.family)!;
      (t.get(r.task) ?? t.set(r.task, []).get(r.task)!).push(i);
    });
    const byFamily = [...fam.values()].map((t) => [...t.values()]);
    const rand = mulberry32(1);
    let total = 0;
    for (let k = 0; k < 300; k++) {
      const idx = hierarchicalResample(byFamily, rows, rand);
      total += idx.length;
      const tasks = new Set(idx.map((i) => rows[i].task));
      for (const t of tasks) expect(idx.filter((i) => rows[i].task === t).length % rows.filter((r) => r.task === t).length).toBe(0);
    }
    expect(total / 300 / rows.length).toBeGreaterThan(0.8);
    expect(total / 300 / rows.length).toBeLessThan(1.2);
  });

  it("is deterministic and gives an ordered interval around the estimate; null without two outcomes", () => {
    const rows = rowsFor("Sim Agent A");
    const a = weightedFit(rows)!;
    expect(weightedFit(rows)).toEqual(a);
    expect(a.l50Ci[0]).toBeLessThanOrEqual(a.l50);
    expect(a.l50Ci[1]).toBeGreaterThanOrEqual(a.l50);
    expect(a.fits).toBeGreaterThan(900);
    expect(weightedFit(rows.map((r) => ({ ...r, y: 1 })))).toBeNull();
  });
});
