// Task-accuracy curve and horizon from per-length counts. a(i) only depends on each
// generation's length L and first divergence f, so weighted counts per length are enough — this
// is what makes 1,000 bootstrap resamples over 100k items cheap (no per-resample objects).

/**
 * Weighted counts indexed 1..Lmax:
 *   byLength[L]   generations of length L
 *   byFirstDiv[f] generations whose first divergence is f
 *   divByLength[L] generations of length L that diverge somewhere
 */
export interface CurveCounts {
  byLength: Float64Array;
  byFirstDiv: Float64Array;
  divByLength: Float64Array;
}

export function newCurveCounts(lmax: number): CurveCounts {
  return { byLength: new Float64Array(lmax + 1), byFirstDiv: new Float64Array(lmax + 1), divByLength: new Float64Array(lmax + 1) };
}

export function clearCurveCounts(c: CurveCounts): void {
  c.byLength.fill(0);
  c.byFirstDiv.fill(0);
  c.divByLength.fill(0);
}

/**
 * Calls `visit(i, n(i), a(i))` for i = 1.. while some generation has L ≥ i; stops early when
 * `visit` returns false. n(i) = weight with L ≥ i; failures at i = weight with f ≤ i minus weight
 * with L < i that diverged (f ≤ L < i), since f never exceeds L.
 */
export function walkTaskCurve(c: CurveCounts, visit: (i: number, n: number, a: number) => boolean | void): void {
  const lmax = c.byLength.length - 1;
  let total = 0;
  for (let L = 1; L <= lmax; L++) total += c.byLength[L];
  let shorter = 0; // weight with L < i
  let divShorter = 0; // diverged weight with L < i
  let divUpTo = 0; // weight with f ≤ i
  for (let i = 1; i <= lmax; i++) {
    const n = total - shorter;
    if (n <= 0) return;
    divUpTo += c.byFirstDiv[i];
    const fails = divUpTo - divShorter;
    if (visit(i, n, (n - fails) / n) === false) return;
    shorter += c.byLength[i];
    divShorter += c.divByLength[i];
  }
}

// a(i) ≥ s is tested with a small slack so that e.g. 12/15 ≥ 0.8 holds despite rounding.
const SLACK = 1e-12;

/** H_s: the number of leading steps with a(i) ≥ s; censored at the longest length when never below. */
export function horizonFrom(c: CurveCounts, s: number): { steps: number; censored: boolean } {
  let steps = 0;
  let censored = true;
  walkTaskCurve(c, (i, _n, a) => {
    if (a < s - SLACK) {
      censored = false;
      return false;
    }
    steps = i;
    return true;
  });
  return { steps, censored };
}
