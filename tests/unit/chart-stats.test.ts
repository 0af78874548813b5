import { describe, expect, it } from "vitest";
import { formatP, formatPts, pStatement } from "@/app/compare/_components/format-p";
import { binomialCdf, floorCeilingFlag, slopeBootstrapCi } from "@/lib/analysis/selfcond-ci";
import { newcombePairedDiffCi } from "@/lib/stats/paired-ci";

describe("self-conditioning slope interval", () => {
  it("binomial CDF by hand: n = 4, p = 0.5", () => {
    expect(Array.from(binomialCdf(4, 0.5))).toEqual([1 / 16, 5 / 16, 11 / 16, 15 / 16, 1].map((v) => expect.closeTo(v, 12)));
    expect(Array.from(binomialCdf(3, 0))).toEqual([1, 1, 1, 1]);
    expect(Array.from(binomialCdf(3, 1))).toEqual([0, 0, 0, 1]);
  });

  it("no sampling spread when every rate is all right or all wrong", () => {
    expect(
      slopeBootstrapCi([
        { induced_error_rate: 0, n: 10, correct: 10 },
        { induced_error_rate: 1, n: 10, correct: 0 },
      ]),
    ).toEqual([-1, -1]);
  });

  it("matches the normal approximation for large n (two rates: SE = √(p₀q₀/n + p₁q₁/n))", () => {
    // slope = 0.5 − 0.8 = −0.3; SE = √(0.16/400 + 0.25/400) = 0.03202; ±1.96 SE → [−0.3628, −0.2372]
    const ci = slopeBootstrapCi([
      { induced_error_rate: 0, n: 400, correct: 320 },
      { induced_error_rate: 1, n: 400, correct: 200 },
    ])!;
    expect(ci[0]).toBeCloseTo(-0.3628, 1);
    expect(ci[1]).toBeCloseTo(-0.2372, 1);
    expect(Math.abs(ci[0] - -0.3628)).toBeLessThan(0.01);
    expect(Math.abs(ci[1] - -0.2372)).toBeLessThan(0.01);
  });

  it("is deterministic and null with one rate", () => {
    const pts = [
      { induced_error_rate: 0, n: 50, correct: 40 },
      { induced_error_rate: 0.5, n: 50, correct: 30 },
      { induced_error_rate: 1, n: 50, correct: 21 },
    ];
    expect(slopeBootstrapCi(pts)).toEqual(slopeBootstrapCi(pts));
    expect(slopeBootstrapCi([{ induced_error_rate: 0.5, n: 50, correct: 30 }])).toBeNull();
  });

  it("flags a floor (17% with no injected errors) and a ceiling, not a normal sweep", () => {
    const floor = floorCeilingFlag([
      { induced_error_rate: 0.5, n: 100, correct: 10 },
      { induced_error_rate: 0, n: 100, correct: 17 },
    ]);
    expect(floor?.kind).toBe("floor");
    expect(floor?.text).toContain("17% correct with no injected errors");
    expect(
      floorCeilingFlag([
        { induced_error_rate: 0, n: 100, correct: 99 },
        { induced_error_rate: 1, n: 100, correct: 95 },
      ])?.kind,
    ).toBe("ceiling");
    expect(
      floorCeilingFlag([
        { induced_error_rate: 0, n: 100, correct: 90 },
        { induced_error_rate: 1, n: 100, correct: 40 },
      ]),
    ).toBeNull();
  });
});

describe("paired difference interval (Newcombe method 10)", () => {
  it("identical runs: φ = 1 and the interval is the difference of the Wilson half-widths", () => {
    // Wilson(30, 100) = [0.21890, 0.39585]: lower −|0.0958 − 0.0811| = −0.01480, upper +0.01480
    const ci = newcombePairedDiffCi({ both: 30, onlyA: 0, onlyB: 0, neither: 70 })!;
    expect(ci[0]).toBeCloseTo(-0.0148, 4);
    expect(ci[1]).toBeCloseTo(0.0148, 4);
  });

  it("φ = 0 reduces to the unpaired hybrid score interval", () => {
    // both·neither = onlyA·onlyB (25·25 = 25·25) → φ = 0. pA = pB = 0.5, n = 100:
    // Wilson(50, 100) = [0.40383, 0.59617]; half-width 0.09617 → ±√2 · 0.09617 = ±0.13601
    const ci = newcombePairedDiffCi({ both: 25, onlyA: 25, onlyB: 25, neither: 25 })!;
    expect(ci[0]).toBeCloseTo(-0.136, 3);
    expect(ci[1]).toBeCloseTo(0.136, 3);
  });

  it("contains the observed difference, stays in [−1, 1], narrower than unpaired when outcomes agree", () => {
    const t = { both: 40, onlyA: 5, onlyB: 15, neither: 40 };
    const ci = newcombePairedDiffCi(t)!;
    expect(ci[0]).toBeLessThan(0.1);
    expect(ci[1]).toBeGreaterThan(0.1);
    expect(ci[0]).toBeCloseTo(0.01453, 4);
    expect(ci[1]).toBeCloseTo(0.18223, 4);
    const extreme = newcombePairedDiffCi({ both: 0, onlyA: 0, onlyB: 10, neither: 0 })!;
    expect(extreme[1]).toBeLessThanOrEqual(1);
    expect(extreme[0]).toBeGreaterThan(0);
    expect(newcombePairedDiffCi({ both: 0, onlyA: 0, onlyB: 0, neither: 0 })).toBeNull();
  });
});

describe("p-values and differences as text", () => {
  it('says "p < 0.0001", never "p = < 0.0001"', () => {
    expect(pStatement(0.00001)).toBe("p < 0.0001");
    expect(pStatement(0.032)).toBe("p = 0.032");
    expect(pStatement(0.5)).toBe("p = 0.50");
    expect(formatP(0.00001)).toBe("< 0.0001");
    expect(formatPts(-0.034)).toBe("−3.4 pts");
    expect(formatPts(0)).toBe("±0.0 pts");
  });
});
