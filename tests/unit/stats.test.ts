import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeRunMetrics } from "../../lib/analysis/metrics";
import { logisticFit, mulberry32, ols, passAtK, passHatK, percentile, wilson } from "../../lib/analysis/stats";
import type { GenerationSummary, RunHeader } from "../../lib/analysis/types";

describe("wilson", () => {
  it("matches known values and brackets the observed share inside [0, 1]", () => {
    const [lo, hi] = wilson(8, 20);
    expect(lo).toBeCloseTo(0.218807, 6);
    expect(hi).toBeCloseTo(0.613418, 6);
    expect(wilson(5, 5)[1]).toBe(1);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.nat(), (n, k0) => {
        const k = k0 % (n + 1);
        const [a, b] = wilson(k, n);
        expect(0 <= a && a <= k / n + 1e-12 && k / n <= b + 1e-12 && b <= 1).toBe(true);
        const [c, d] = wilson(n - k, n); // symmetric under swapping outcomes
        expect(a).toBeCloseTo(1 - d, 12);
        expect(b).toBeCloseTo(1 - c, 12);
      }),
    );
  });
});

describe("small statistics", () => {
  it("percentile interpolates linearly like numpy", () => {
    expect(percentile([1, 2, 3, 4], 0.25)).toBeCloseTo(1.75, 12);
    expect(percentile([4, 1, 3, 2], 0.975)).toBeCloseTo(3.925, 12);
  });
  it("OLS slope and the PRNG are deterministic", () => {
    expect(ols([0, 0.25, 0.5, 0.75, 1], [1, 0.7, 0.7, 0.3, 0.3]).slope).toBeCloseTo(-0.72, 12);
    expect(ols([1, 1], [0, 1]).slope).toBeNull();
    const a = mulberry32(5);
    const b = mulberry32(5);
    for (let i = 0; i < 100; i++) expect(a()).toBe(b());
  });
  it("pass@k and pass^k", () => {
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 12);
    expect(passHatK(10, 3, 1)).toBeCloseTo(0.3, 12);
    expect(passAtK(5, 1, 5)).toBe(1);
    expect(passHatK(5, 4, 5)).toBe(0);
    expect(passAtK(4, 2, 2)).toBeCloseTo(1 - 1 / 6, 12);
    expect(passHatK(4, 2, 2)).toBeCloseTo(1 / 6, 12);
  });
});

describe("logisticFit", () => {
  const sigma = (z: number) => 1 / (1 + Math.exp(-z));
  it("recovers known coefficients from expected counts", () => {
    const x = [2, 3, 4, 5, 6, 7];
    const total = x.map(() => 1e6);
    const succ = x.map((v) => 1e6 * sigma(-1.5 * v + 6));
    const f = logisticFit(x, succ, total);
    expect(f.slope).toBeCloseTo(-1.5, 3);
    expect(f.intercept).toBeCloseTo(6, 2);
  });
  it("recovers them from simulated 0/1 outcomes", () => {
    const rand = mulberry32(11);
    const x = [2, 3, 4, 5, 6, 7];
    const succ = x.map(() => 0);
    const total = x.map(() => 20000);
    x.forEach((v, i) => {
      for (let k = 0; k < total[i]; k++) if (rand() < sigma(-1.2 * v + 5)) succ[i]++;
    });
    const f = logisticFit(x, succ, total);
    expect(Math.abs(f.slope + 1.2)).toBeLessThan(0.05);
    expect(Math.abs(f.intercept - 5)).toBeLessThan(0.25);
  });
  it("stays finite on perfectly separated data (the penalty bounds the slope)", () => {
    const f = logisticFit([1, 2, 3, 4], [5, 5, 0, 0], [5, 5, 5, 5]);
    expect(Number.isFinite(f.slope) && Number.isFinite(f.intercept) && f.converged).toBe(true);
    expect(f.slope).toBeLessThan(0);
  });
});

const header: RunHeader = {
  key: "sim",
  model: { name: "Sim" },
  benchmark: "generic",
  variant: { name: "v" },
  config: {},
  source: null,
  created_at: null,
};

function simulate(p: number, items: number, seed: number): GenerationSummary[] {
  const rand = mulberry32(seed);
  const lengths = [20, 40, 60, 80, 100];
  return Array.from({ length: items }, (_, i) => {
    const L = lengths[i % lengths.length];
    let fd: number | null = null;
    let st = "";
    for (let j = 1; j <= L; j++) {
      const ok = rand() < p;
      if (!ok && fd === null) fd = j;
      st += ok ? "c" : "s";
    }
    return {
      itemKey: `i${i}`,
      epoch: 0,
      length: L,
      firstCorrect: fd === null,
      lastCorrect: fd === null,
      firstDivergence: fd,
      statuses: st,
      modes: fd ? 64 : 0,
      cluster: null,
      selfConditioning: null,
      clean: fd === null,
      exactStep: true,
      promptTokens: null,
      completionTokens: null,
      latencyMs: null,
      costUsd: null,
    };
  });
}

describe("horizon of a constant-p model", () => {
  it.each([0.9, 0.95, 0.98])("H_s ≈ ln(s)/ln(p) and p̂ ≈ p for p = %s", (p) => {
    const { metrics } = computeRunMetrics(header, simulate(p, 4000, 3));
    // sd of a(i) is ≤ 0.008 with 4,000 items, and a(i) moves by ≥ 0.4% per step near H: ±2 steps is safe.
    expect(Math.abs(metrics.horizon!.steps - Math.log(0.5) / Math.log(p))).toBeLessThan(2);
    expect(Math.abs(metrics.horizon_80!.steps - Math.log(0.8) / Math.log(p))).toBeLessThan(2);
    expect(Math.abs(metrics.reliability!.p - p)).toBeLessThan(0.005);
    const ci = metrics.horizon!.ci;
    expect(ci[0] <= metrics.horizon!.steps && metrics.horizon!.steps <= ci[1]).toBe(true);
  });

  // Its speed is a figure of `npm run bench`, not a timed assertion here (shared machines).
  it("bootstraps 1,000 resamples of 100,000 items, deterministically", () => {
    const gens = simulate(0.97, 100_000, 9);
    const a = computeRunMetrics(header, gens).metrics;
    const b = computeRunMetrics(header, gens.slice(0, 2000)).metrics;
    const c = computeRunMetrics(header, gens.slice(0, 2000)).metrics;
    expect(b).toEqual(c);
    expect(a.length_fit).not.toBeNull();
  });
});
