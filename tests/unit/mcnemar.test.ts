import { describe, expect, it } from "vitest";
import { chiSquare1Sf, exactBinomialTwoSided, holmAdjust, mcnemar } from "@/lib/stats/mcnemar";
import { interceptFor, ols, wilson } from "@/lib/analysis/stats";

describe("McNemar", () => {
  it("exact binomial matches known values", () => {
    // b=0, c=5: 2 * 0.5^5 = 0.0625
    expect(exactBinomialTwoSided(0, 5)).toBeCloseTo(0.0625, 10);
    // b=2, c=8: 2 * P(X<=2 | n=10) = 2 * 56/1024
    expect(exactBinomialTwoSided(2, 8)).toBeCloseTo((2 * 56) / 1024, 10);
    // symmetric and capped at 1
    expect(exactBinomialTwoSided(8, 2)).toBeCloseTo(exactBinomialTwoSided(2, 8), 12);
    expect(exactBinomialTwoSided(5, 5)).toBe(1);
  });

  it("uses the exact test for few discordant pairs and chi-square otherwise", () => {
    expect(mcnemar(3, 7).method).toBe("exact");
    const r = mcnemar(10, 30);
    expect(r.method).toBe("chi-square");
    // (|10-30|-1)^2/40 = 9.025 → p ≈ 0.002663
    expect(r.statistic).toBeCloseTo(9.025, 6);
    expect(r.p!).toBeCloseTo(0.002663, 5);
  });

  it("no discordant pairs → no test", () => {
    expect(mcnemar(0, 0)).toMatchObject({ method: "none", p: null });
  });

  it("chi-square tail", () => {
    expect(chiSquare1Sf(3.841459)).toBeCloseTo(0.05, 5);
    expect(chiSquare1Sf(0)).toBe(1);
  });

  it("large exact counts stay finite", () => {
    const p = exactBinomialTwoSided(400, 600);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-9);
  });
});

describe("descriptive helpers", () => {
  it("wilson matches the SPEC example shape", () => {
    const [lo, hi] = wilson(61, 100);
    expect(lo).toBeCloseTo(0.5121, 3);
    expect(hi).toBeCloseTo(0.6999, 3);
  });
  it("ols and intercept", () => {
    const pts = [
      { x: 0, y: 1 },
      { x: 0.5, y: 0.8 },
      { x: 1, y: 0.6 },
    ];
    const f = ols(
      pts.map((p) => p.x),
      pts.map((p) => p.y),
    );
    expect(f.slope).toBeCloseTo(-0.4, 10);
    expect(f.intercept).toBeCloseTo(1, 10);
    expect(interceptFor(pts, -0.4)).toBeCloseTo(1, 10);
    expect(ols([1, 1], [2, 3]).slope).toBeNull();
  });
});

describe("Holm's adjustment", () => {
  it("multiplies the i-th smallest of m by m − i + 1, monotone, capped at 1, skipping runs with no test", () => {
    const close = (got: (number | null)[], want: (number | null)[]) =>
      want.forEach((w, i) => (w === null ? expect(got[i]).toBeNull() : expect(got[i]!).toBeCloseTo(w, 12)));
    // m = 3 tested: 0.01 × 3 = 0.03; 0.02 × 2 = 0.04; 0.04 × 1 = 0.04
    close(holmAdjust([0.04, null, 0.01, 0.02]), [0.04, null, 0.03, 0.04]);
    // monotone: the larger raw p (0.045 × 1) is raised to the smaller's 0.03 × 2
    close(holmAdjust([0.045, 0.03]), [0.06, 0.06]);
    expect(holmAdjust([0.6, 0.7])).toEqual([1, 1]);
    expect(holmAdjust([0.2])).toEqual([0.2]);
    expect(holmAdjust([])).toEqual([]);
  });

  it("never lowers a p-value and keeps the order of the raw ones (property)", () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let t = 0; t < 200; t++) {
      const ps = Array.from({ length: 1 + Math.floor(rand() * 8) }, () => (rand() < 0.1 ? null : rand() ** 3));
      const adj = holmAdjust(ps);
      ps.forEach((p, i) => {
        if (p === null) expect(adj[i]).toBeNull();
        else expect(adj[i]!).toBeGreaterThanOrEqual(p);
      });
      for (let i = 0; i < ps.length; i++)
        for (let j = 0; j < ps.length; j++)
          if (ps[i] !== null && ps[j] !== null && ps[i]! < ps[j]!) expect(adj[i]!).toBeLessThanOrEqual(adj[j]!);
    }
  });
});
