// Small, dependency-free statistics used by the run metrics (SPEC §4).

// The 97.5% normal quantile at full precision (README's "1.959964" is this rounded); the expected
// files were computed with it, and 1.959964 itself moves some bounds across a rounding edge.
export const Z95 = 1.959963984540054;

/** Wilson score interval for k successes in n trials, clamped to [0, 1]; [0, 1] when n = 0. */
export function wilson(k: number, n: number, z = Z95): [number, number] {
  if (n <= 0) return [0, 1];
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return [Math.max(0, center - half), Math.min(1, center + half)];
}

/** mulberry32: a tiny, fast, seedable PRNG with uniform output in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Percentile of ascending-sorted values with linear interpolation (numpy's default), q in [0, 1]. */
export function percentileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const pos = q * (n - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export function percentile(values: ArrayLike<number>, q: number): number {
  const s = Float64Array.from(values).sort();
  return percentileSorted(s, q);
}

/** Ordinary least squares y = intercept + slope·x; the slope is null when x has no spread (then the intercept is the mean of y). */
export function ols(x: ArrayLike<number>, y: ArrayLike<number>): { slope: number | null; intercept: number | null } {
  const n = x.length;
  if (n === 0) return { slope: null, intercept: null };
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (x[i] - mx) ** 2;
    sxy += (x[i] - mx) * (y[i] - my);
  }
  if (sxx === 0) return { slope: null, intercept: my };
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

/** Intercept of the line with a given slope through the points' means (the §6 JSON keeps only the OLS slope). */
export function interceptFor(points: readonly { x: number; y: number }[], slope: number): number | null {
  if (!points.length) return null;
  const mx = points.reduce((a, p) => a + p.x, 0) / points.length;
  const my = points.reduce((a, p) => a + p.y, 0) / points.length;
  return my - slope * mx;
}

export interface LogisticFit {
  slope: number; // a
  intercept: number; // b
  converged: boolean;
}

/**
 * Weighted logistic regression P(y=1) = σ(a·x + b) on grouped data: at x[i], `succ[i]` weighted
 * successes out of `total[i]`. Minimises Σ weighted log-loss + a²/(2C) — scikit-learn's
 * LogisticRegression(C) objective, intercept unpenalised. Newton's method on centred x with
 * step halving, so perfectly separated data (where the penalty alone bounds the slope) converge.
 */
export function logisticFit(x: ArrayLike<number>, succ: ArrayLike<number>, total: ArrayLike<number>, C = 10): LogisticFit {
  const n = x.length;
  let W = 0;
  let mx = 0;
  for (let i = 0; i < n; i++) {
    W += total[i];
    mx += total[i] * x[i];
  }
  mx = W > 0 ? mx / W : 0;
  let a = 0;
  let b = 0;
  const lam = 1 / C;
  const objective = (a_: number, b_: number) => {
    let f = (lam * a_ * a_) / 2;
    for (let i = 0; i < n; i++) {
      if (total[i] === 0) continue;
      const z = a_ * (x[i] - mx) + b_;
      // log(1 + e^z) computed stably
      const l1pe = z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
      f += total[i] * l1pe - succ[i] * z;
    }
    return f;
  };
  let f = objective(a, b);
  let converged = false;
  for (let iter = 0; iter < 100; iter++) {
    let ga = lam * a;
    let gb = 0;
    let haa = lam;
    let hab = 0;
    let hbb = 0;
    for (let i = 0; i < n; i++) {
      if (total[i] === 0) continue;
      const xc = x[i] - mx;
      const p = 1 / (1 + Math.exp(-(a * xc + b)));
      const r = total[i] * p - succ[i];
      const w = total[i] * p * (1 - p);
      ga += r * xc;
      gb += r;
      haa += w * xc * xc;
      hab += w * xc;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    let da: number;
    let db: number;
    if (det > 1e-300 && hbb > 0) {
      da = (hbb * ga - hab * gb) / det;
      db = (haa * gb - hab * ga) / det;
    } else {
      da = ga / haa; // intercept direction is flat (one outcome only): gradient step on a
      db = hbb > 0 ? gb / hbb : Math.sign(gb);
    }
    let t = 1;
    let fNew = objective(a - da, b - db);
    while (!(fNew <= f) && t > 1e-10) {
      t /= 2;
      fNew = objective(a - t * da, b - t * db);
    }
    a -= t * da;
    b -= t * db;
    const delta = f - fNew;
    f = fNew;
    if (Math.abs(t * da) < 1e-12 && Math.abs(t * db) < 1e-12) {
      converged = true;
      break;
    }
    if (delta >= 0 && delta < 1e-15 * Math.max(1, Math.abs(f)) && Math.abs(ga) + Math.abs(gb) < 1e-8) {
      converged = true;
      break;
    }
  }
  return { slope: a, intercept: b - a * mx, converged };
}

/** Unbiased pass@k for one item: 1 − C(n−c, k)/C(n, k). */
export function passAtK(n: number, c: number, k: number): number {
  if (k > n) return Number.NaN;
  if (n - c < k) return 1;
  let prod = 1;
  for (let i = n - c + 1; i <= n; i++) prod *= 1 - k / i;
  return 1 - prod;
}

/** pass^k for one item (all k of k draws without replacement succeed): C(c, k)/C(n, k). */
export function passHatK(n: number, c: number, k: number): number {
  if (k > n) return Number.NaN;
  if (c < k) return 0;
  let prod = 1;
  for (let i = 0; i < k; i++) prod *= (c - i) / (n - i);
  return prod;
}

/** Largest value; unlike Math.max(...xs) it does not overflow the call stack on big arrays. */
export function maxOf(values: Iterable<number>, init = -Infinity): number {
  let m = init;
  for (const v of values) if (v > m) m = v;
  return m;
}
