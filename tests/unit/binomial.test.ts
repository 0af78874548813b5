// The bootstrap's draws (lib/analysis/binomial.ts) against the distributions they claim: binomial
// draws by a chi-square test against the exact pmf, in both regimes (inversion below a mean of
// 10, BTRD above, p past ½ by symmetry); multinomial counts by their sum, means and covariances.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { binomial, MultinomialSampler } from "../../lib/analysis/binomial";
import { mulberry32 } from "../../lib/analysis/stats";

/** ln C(n, k) for every k, from a table of ln k!. */
function lnChoose(n: number): (k: number) => number {
  const lnFact = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) lnFact[i] = lnFact[i - 1] + Math.log(i);
  return (k) => lnFact[n] - lnFact[k] - lnFact[n - k];
}

/** Pearson's statistic over bins with an expected count ≥ 10 (the rest pooled into the two tails), and its degrees of freedom. */
function chiSquare(counts: Map<number, number>, draws: number, n: number, p: number): { stat: number; df: number } {
  const choose = lnChoose(n);
  const pmf = (k: number) => Math.exp(choose(k) + k * Math.log(p) + (n - k) * Math.log1p(-p));
  const mode = Math.floor((n + 1) * p);
  let lo = mode;
  while (lo > 0 && pmf(lo - 1) * draws >= 10) lo--;
  let hi = mode;
  while (hi < n && pmf(hi + 1) * draws >= 10) hi++;
  let below = 0;
  let above = 0;
  for (const [k, c] of counts) {
    if (k < lo) below += c;
    if (k > hi) above += c;
  }
  let stat = 0;
  let inside = 0;
  for (let k = lo; k <= hi; k++) {
    const e = pmf(k) * draws;
    inside += e;
    const o = counts.get(k) ?? 0;
    stat += (o - e) ** 2 / e;
  }
  let pLow = 0;
  for (let k = 0; k < lo; k++) pLow += pmf(k);
  const eLow = pLow * draws;
  const eHigh = draws - inside - eLow;
  let df = hi - lo;
  for (const [o, e] of [
    [below, eLow],
    [above, eHigh],
  ]) {
    if (e >= 10) {
      stat += (o - e) ** 2 / e;
      df++;
    } else expect(o).toBeLessThan(40); // a tail the pmf says is nearly empty stays so
  }
  return { stat, df };
}

const CASES: [number, number][] = [
  [1, 0.5],
  [5, 0.3],
  [40, 0.2], // mean 8: inversion
  [25, 0.4], // mean 10: BTRD's smallest
  [30, 0.45],
  [200, 0.9], // p past ½
  [1000, 0.01],
  [1000, 0.5],
  [100_000, 0.3],
  [1_000_000, 0.00002],
  [3_000_000, 0.7],
];

describe("binomial", () => {
  for (const [n, p] of CASES) {
    it(`draws Binomial(${n}, ${p}) with the exact distribution`, () => {
      const draws = 200_000;
      const u = mulberry32(n * 7919 + Math.round(p * 1e6));
      const counts = new Map<number, number>();
      let sum = 0;
      let sq = 0;
      let outside = 0;
      for (let i = 0; i < draws; i++) {
        const k = binomial(u, n, p);
        if (!(Number.isInteger(k) && k >= 0 && k <= n)) outside++;
        counts.set(k, (counts.get(k) ?? 0) + 1);
        sum += k;
        sq += k * k;
      }
      expect(outside).toBe(0);
      const mean = sum / draws;
      const variance = sq / draws - mean * mean;
      expect(Math.abs(mean - n * p)).toBeLessThan(5 * Math.sqrt((n * p * (1 - p)) / draws) + 1e-12);
      if (n > 1) expect(variance / (n * p * (1 - p))).toBeCloseTo(1, 1);
      const { stat, df } = chiSquare(counts, draws, n, p);
      if (process.env.BINOMIAL_DEBUG) console.log(n, p, stat.toFixed(1), df);
      // ~5 standard deviations of χ²(df) above its mean: draws from a wrong distribution land far past it
      expect(stat).toBeLessThan(df + 5 * Math.sqrt(2 * df));
    });
  }

  it("is 0 or n at the ends of p and for n = 0", () => {
    const u = mulberry32(1);
    expect(binomial(u, 0, 0.3)).toBe(0);
    expect(binomial(u, 50, 0)).toBe(0);
    expect(binomial(u, 50, 1)).toBe(50);
  });
});

describe("MultinomialSampler", () => {
  it("counts sum to n, empty classes get none, every count a non-negative integer", () => {
    // small sizes repeat, so groups of equal classes take both of their paths
    const size = fc.oneof(fc.nat(4), fc.nat(2000));
    fc.assert(
      fc.property(fc.array(size, { minLength: 1, maxLength: 60 }), fc.nat(5000), fc.integer(), (sizes, n, seed) => {
        fc.pre(sizes.some((s) => s > 0));
        const out = new Float64Array(sizes.length).fill(-1);
        new MultinomialSampler(sizes).draw(mulberry32(seed), n, out);
        expect(out.reduce((a, b) => a + b, 0)).toBe(n);
        sizes.forEach((s, c) => {
          expect(Number.isInteger(out[c]) && out[c] >= 0).toBe(true);
          if (s === 0) expect(out[c]).toBe(0);
        });
      }),
    );
  });

  // classes of one size drawn as a group: by uniform picks (sizes 1 and 4), by a chain of
  // binomials (300, with more than 6 draws per class), alone (the rest)
  it("has the multinomial's means and covariances", () => {
    const sizes = [1, 300, 4, 1, 50, 4, 300, 1, 4, 334, 0];
    const n = 999;
    const total = sizes.reduce((a, b) => a + b, 0);
    const draws = 40_000;
    const u = mulberry32(7);
    const out = new Float64Array(sizes.length);
    const mean = new Float64Array(sizes.length);
    const cross = sizes.map(() => new Float64Array(sizes.length));
    const sampler = new MultinomialSampler(sizes);
    for (let d = 0; d < draws; d++) {
      sampler.draw(u, n, out);
      for (let a = 0; a < sizes.length; a++) {
        mean[a] += out[a] / draws;
        for (let b = 0; b < sizes.length; b++) cross[a][b] += (out[a] * out[b]) / draws;
      }
    }
    for (let a = 0; a < sizes.length; a++) {
      const pa = sizes[a] / total;
      expect(Math.abs(mean[a] - n * pa)).toBeLessThanOrEqual(5 * Math.sqrt((n * pa * (1 - pa)) / draws));
      for (let b = 0; b < sizes.length; b++) {
        const pb = sizes[b] / total;
        const cov = cross[a][b] - mean[a] * mean[b];
        const expected = a === b ? n * pa * (1 - pa) : -n * pa * pb;
        // the sample covariance's own spread is ~ sqrt(Var(XaXb) / draws); 6% of the larger variance bounds it here
        expect(Math.abs(cov - expected)).toBeLessThan(0.06 * Math.max(n * pa * (1 - pa), n * pb * (1 - pb)) + 0.02);
      }
    }
  });
});
