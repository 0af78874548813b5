import { mulberry32, percentileSorted, wilson, Z95 } from "../analysis/stats";

// Pooling rules of the study view (docs/study.md). A point gathers what each model contributes
// at one x. One model: its runs' counts are pooled and the interval is Wilson (rates), a
// linearised ratio interval (step accuracy) or, for a per-run number, the run's stored CI (one
// run) or a bootstrap over its runs. Several models: the value is the mean over models, each
// weighted equally whatever its number of generations, and the 95% interval is a percentile
// bootstrap over models × items: models are resampled with replacement and, inside each drawn
// model, its items (a binomial draw of its pooled count is exactly a resample of 0/1 items).

export const STUDY_BOOTSTRAP_SEED = 20261201;
export const STUDY_RESAMPLES = 1000;

/** successes k out of n generations */
export interface RateCount {
  k: number;
  n: number;
}

/**
 * A ratio of sums over generations, c_i locally correct steps out of t_i reference steps:
 * the sums and the sums of squares and products its linearised variance needs.
 */
export interface RatioCount {
  n: number;
  c: number;
  t: number;
  cc: number;
  ct: number;
  tt: number;
}

export type Interval = [number, number];
export type PoolMethod = "wilson" | "ratio" | "stored" | "bootstrap" | "none";

export interface Pooled {
  value: number | null;
  ci: Interval | null;
  method: PoolMethod;
}

type Rng = () => number;

function normal(rng: Rng): number {
  // Box–Muller; 1 − u keeps the log away from 0
  const u = 1 - rng();
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * A Binomial(n, p) draw: exact (a sum of Bernoulli draws) up to 64 trials, the normal
 * approximation with continuity rounding above (the bootstrap draws millions of these).
 */
export function binomialDraw(n: number, p: number, rng: Rng): number {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  if (n <= 64) {
    let k = 0;
    for (let i = 0; i < n; i++) if (rng() < p) k++;
    return k;
  }
  const k = Math.round(n * p + Math.sqrt(n * p * (1 - p)) * normal(rng));
  return Math.min(n, Math.max(0, k));
}

export function addRates(a: RateCount, b: RateCount): RateCount {
  return { k: a.k + b.k, n: a.n + b.n };
}

export function addRatios(a: RatioCount, b: RatioCount): RatioCount {
  return { n: a.n + b.n, c: a.c + b.c, t: a.t + b.t, cc: a.cc + b.cc, ct: a.ct + b.ct, tt: a.tt + b.tt };
}

/** The ratio c/t and its standard error by linearisation over generations (each generation one cluster of steps). */
export function ratioEstimate(r: RatioCount): { value: number; se: number } | null {
  if (r.t <= 0) return null;
  const R = r.c / r.t;
  if (r.n < 2) return { value: R, se: 0 };
  const ss = Math.max(0, r.cc - 2 * R * r.ct + R * R * r.tt);
  return { value: R, se: Math.sqrt((ss / (r.t * r.t)) * (r.n / (r.n - 1))) };
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

function percentileInterval(draws: Float64Array): Interval {
  draws.sort();
  return [percentileSorted(draws, 0.025), percentileSorted(draws, 0.975)];
}

/** Rates of several models (one RateCount per model, its runs already summed). */
export function poolRates(models: RateCount[], resamples = STUDY_RESAMPLES, seed = STUDY_BOOTSTRAP_SEED): Pooled {
  const used = models.filter((m) => m.n > 0);
  if (used.length === 0) return { value: null, ci: null, method: "none" };
  if (used.length === 1) {
    const { k, n } = used[0];
    return { value: k / n, ci: wilson(k, n), method: "wilson" };
  }
  const rates = used.map((m) => m.k / m.n);
  const value = rates.reduce((s, r) => s + r, 0) / rates.length;
  const rng = mulberry32(seed);
  const M = used.length;
  const draws = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let j = 0; j < M; j++) {
      const m = used[Math.floor(rng() * M)];
      sum += binomialDraw(m.n, m.k / m.n, rng) / m.n;
    }
    draws[b] = sum / M;
  }
  return { value, ci: percentileInterval(draws), method: "bootstrap" };
}

/** Step accuracy of several models (one RatioCount per model). */
export function poolRatios(models: RatioCount[], resamples = STUDY_RESAMPLES, seed = STUDY_BOOTSTRAP_SEED): Pooled {
  const est = models.map(ratioEstimate).filter((e): e is { value: number; se: number } => e !== null);
  if (est.length === 0) return { value: null, ci: null, method: "none" };
  if (est.length === 1) {
    const { value, se } = est[0];
    return { value, ci: [clamp01(value - Z95 * se), clamp01(value + Z95 * se)], method: "ratio" };
  }
  const value = est.reduce((s, e) => s + e.value, 0) / est.length;
  const rng = mulberry32(seed);
  const M = est.length;
  const draws = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let j = 0; j < M; j++) {
      const e = est[Math.floor(rng() * M)];
      sum += clamp01(e.value + e.se * normal(rng));
    }
    draws[b] = sum / M;
  }
  return { value, ci: percentileInterval(draws), method: "bootstrap" };
}

/** One number per run (H₀.₅): runs grouped by model; `ci` is the run's own stored interval. */
export interface RunValue {
  value: number;
  ci: Interval | null;
  /** the run's accuracy never fell below the level within its lengths: `value` is a lower bound */
  censored?: boolean;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Per-run values of several models: mean over models of each model's mean over its runs. */
export function poolRunValues(models: RunValue[][], resamples = STUDY_RESAMPLES, seed = STUDY_BOOTSTRAP_SEED): Pooled {
  const used = models.filter((m) => m.length > 0);
  if (used.length === 0) return { value: null, ci: null, method: "none" };
  if (used.length === 1 && used[0].length === 1) {
    const r = used[0][0];
    return { value: r.value, ci: r.ci, method: r.ci ? "stored" : "none" };
  }
  const value = mean(used.map((runs) => mean(runs.map((r) => r.value))));
  const rng = mulberry32(seed);
  const M = used.length;
  const draws = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let j = 0; j < M; j++) {
      const runs = M === 1 ? used[0] : used[Math.floor(rng() * M)];
      let s = 0;
      for (let i = 0; i < runs.length; i++) s += runs[Math.floor(rng() * runs.length)].value;
      sum += s / runs.length;
    }
    draws[b] = sum / M;
  }
  return { value, ci: percentileInterval(draws), method: "bootstrap" };
}
