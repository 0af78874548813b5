// Uncertainty and range checks of a self-conditioning sweep's slope (accuracy at the target turn
// against induced error rate, OLS over the rates' accuracies).
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, Rng } from "./bootstrap";
import { ols, percentileSorted } from "./stats";

export interface SweepPoint {
  induced_error_rate: number;
  n: number;
  correct: number;
}

/**
 * Cumulative distribution of Binomial(n, p) at 0..n, built in log space so large n does not
 * underflow. Resampling a rate's n generations with replacement gives Binomial(n, p̂) correct
 * answers, so one draw is a binary search in this table.
 */
export function binomialCdf(n: number, p: number): Float64Array {
  const cdf = new Float64Array(n + 1);
  if (p <= 0) return cdf.fill(1);
  if (p >= 1) {
    cdf[n] = 1;
    return cdf;
  }
  const logPmf = new Float64Array(n + 1);
  logPmf[0] = n * Math.log1p(-p);
  const odds = Math.log(p) - Math.log1p(-p);
  let max = logPmf[0];
  for (let k = 0; k < n; k++) {
    logPmf[k + 1] = logPmf[k] + Math.log(n - k) - Math.log(k + 1) + odds;
    if (logPmf[k + 1] > max) max = logPmf[k + 1];
  }
  let sum = 0;
  for (let k = 0; k <= n; k++) sum += cdf[k] = Math.exp(logPmf[k] - max);
  let run = 0;
  for (let k = 0; k <= n; k++) cdf[k] = run += cdf[k] / sum;
  cdf[n] = 1;
  return cdf;
}

function drawFrom(cdf: Float64Array, u: number): number {
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cdf[mid] > u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Percentile bootstrap 95% interval of the sweep's OLS slope: generations are resampled with
 * replacement within each rate (the design fixes how many generations each rate gets), 1,000
 * resamples with the project's fixed seed, so the interval is deterministic. Cost is
 * O(Σn + resamples × rates × log n): cheap enough to recompute for runs stored without it.
 * Null with fewer than two rates.
 */
export function slopeBootstrapCi(points: SweepPoint[], resamples = BOOTSTRAP_RESAMPLES, seed = BOOTSTRAP_SEED): [number, number] | null {
  const used = points.filter((p) => p.n > 0);
  if (new Set(used.map((p) => p.induced_error_rate)).size < 2) return null;
  const xs = used.map((p) => p.induced_error_rate);
  const cdfs = used.map((p) => binomialCdf(p.n, p.correct / p.n));
  const rng = new Rng(seed);
  const slopes = new Float64Array(resamples);
  const ys = new Array<number>(used.length);
  for (let b = 0; b < resamples; b++) {
    for (let j = 0; j < used.length; j++) ys[j] = drawFrom(cdfs[j], rng.below(2 ** 30) / 2 ** 30) / used[j].n;
    slopes[b] = ols(xs, ys).slope ?? 0;
  }
  slopes.sort();
  const r6 = (v: number) => Math.round(v * 1e6) / 1e6;
  return [r6(percentileSorted(slopes, 0.025)), r6(percentileSorted(slopes, 0.975))];
}

/** Accuracy at the lowest rate at or below which a sweep is at its floor (docs/decisions.md). */
export const FLOOR_ACCURACY = 0.25;
/** Accuracy at or above which, at every rate, a sweep is at its ceiling. */
export const CEILING_ACCURACY = 0.95;

export interface RangeFlag {
  kind: "floor" | "ceiling";
  /** a few words for legends */
  short: string;
  /** a sentence for tables and tooltips */
  text: string;
}

/**
 * Floor and ceiling effects: a model that is already near chance with no (or the fewest) injected
 * errors has little room to fall, and one that stays near perfect at every rate cannot show a
 * drop either; either way its slope says little about self-conditioning.
 */
export function floorCeilingFlag(points: SweepPoint[]): RangeFlag | null {
  const used = [...points].filter((p) => p.n > 0).sort((a, b) => a.induced_error_rate - b.induced_error_rate);
  if (used.length === 0) return null;
  const base = used[0];
  const baseAcc = base.correct / base.n;
  const at =
    base.induced_error_rate === 0
      ? "with no injected errors"
      : `at the lowest injected rate (${Math.round(base.induced_error_rate * 100)}%)`;
  if (baseAcc <= FLOOR_ACCURACY)
    return {
      kind: "floor",
      short: `floor: ${Math.round(baseAcc * 100)}% ${base.induced_error_rate === 0 ? "at 0 errors" : "at lowest rate"}`,
      text: `Floor effect: ${Math.round(baseAcc * 100)}% correct ${at}, so accuracy has little room to fall and the slope says little.`,
    };
  if (used.every((p) => p.correct / p.n >= CEILING_ACCURACY))
    return {
      kind: "ceiling",
      short: "ceiling: ≥ 95% at every rate",
      text: "Ceiling effect: at least 95% correct at every rate, so the sweep cannot show a drop; the slope says little.",
    };
  return null;
}
