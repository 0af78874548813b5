// Exact binomial and multinomial draws, for the bootstrap (lib/analysis/bootstrap.ts): a resample
// of n items is one multinomial draw of per-class counts, made as a chain of binomials, so its
// cost follows the number of classes instead of the number of items (docs/performance.md, "Load").
//
// Small means (n·p < 10) by inversion, searching up from 0; larger ones by W. Hörmann's BTRD
// (transformed rejection with decomposition; "The generation of binomial random variates",
// J. Statist. Comput. Simul. 46, 1993), which takes O(1) uniforms per draw whatever n.

/** Uniform doubles in [0, 1). */
export type Uniform = () => number;

const INVERSION_BELOW = 10;
const HALF_LN_2PI = 0.5 * Math.log(2 * Math.PI);

/** A draw from Binomial(n, p): n a non-negative integer, p in [0, 1]. */
export function binomial(u: Uniform, n: number, p: number): number {
  if (n === 0 || p <= 0) return 0;
  if (p >= 1) return n;
  if (p > 0.5) return n - binomial(u, n, 1 - p);
  return n * p < INVERSION_BELOW ? inversion(u, n, p) : btrd(u, n, p);
}

function inversion(u: Uniform, n: number, p: number): number {
  const q = 1 - p;
  const ratio = p / q;
  const p0 = Math.exp(n * Math.log1p(-p));
  for (;;) {
    let x = 0;
    let px = p0;
    let rest = u();
    // Past n, rounding has eaten the last of the mass: draw again (rare as 1e-15).
    while (rest >= px && x < n) {
      rest -= px;
      x++;
      px *= ((n - x + 1) / x) * ratio;
    }
    if (rest < px) return x;
  }
}

/** ln(k!) − the first terms of Stirling's series for it, (k + ½) ln(k + 1) − (k + 1) + ½ ln 2π. */
function stirlingTail(k: number): number {
  if (k < SMALL_TAILS.length) return SMALL_TAILS[k];
  const k1 = k + 1;
  const k1sq = k1 * k1;
  return (1 / 12 - (1 / 360 - 1 / (1260 * k1sq)) / k1sq) / k1;
}
const SMALL_TAILS = Array.from({ length: 10 }, (_, k) => {
  let lnFactorial = 0;
  for (let i = 2; i <= k; i++) lnFactorial += Math.log(i);
  return lnFactorial - ((k + 0.5) * Math.log(k + 1) - (k + 1) + HALF_LN_2PI);
});

function btrd(u: Uniform, n: number, p: number): number {
  const q = 1 - p;
  const m = Math.floor((n + 1) * p);
  const r = p / q;
  const nr = (n + 1) * r;
  const npq = n * p * q;
  const sqrtNpq = Math.sqrt(npq);
  const b = 1.15 + 2.53 * sqrtNpq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = n * p + 0.5;
  const alpha = (2.83 + 5.1 / b) * sqrtNpq;
  const vr = 0.92 - 4.2 / b;
  const urvr = 0.86 * vr;
  for (;;) {
    let v = u();
    let w: number;
    if (v <= urvr) {
      // the inner box: accepted without a test
      w = v / vr - 0.43;
      return Math.floor(((2 * a) / (0.5 - Math.abs(w)) + b) * w + c);
    }
    if (v >= vr) {
      w = u() - 0.5;
    } else {
      w = v / vr - 0.93;
      w = Math.sign(w) * 0.5 - w;
      v = u() * vr;
    }
    const us = 0.5 - Math.abs(w);
    const k = Math.floor(((2 * a) / us + b) * w + c);
    if (k < 0 || k > n) continue;
    v = (v * alpha) / (a / (us * us) + b);
    const km = Math.abs(k - m);
    if (km <= 15) {
      // f(k) / f(m) by the pmf's ratio of neighbours
      let f = 1;
      if (m < k) for (let i = m + 1; i <= k; i++) f *= nr / i - r;
      else for (let i = k + 1; i <= m; i++) v *= nr / i - r;
      if (v <= f) return k;
      continue;
    }
    // squeeze on ln, then the exact test through Stirling's series
    const lnV = Math.log(v);
    const rho = (km / npq) * (((km / 3 + 0.625) * km + 1 / 6) / npq + 0.5);
    const t = (-km * km) / (2 * npq);
    if (lnV < t - rho) return k;
    if (lnV > t + rho) continue;
    const nm = n - m + 1;
    const h = (m + 0.5) * Math.log((m + 1) / (r * nm)) + stirlingTail(m) + stirlingTail(n - m);
    const nk = n - k + 1;
    if (lnV <= h + (n + 1) * Math.log(nm / nk) + (k + 0.5) * Math.log((nk * r) / (k + 1)) - stirlingTail(k) - stirlingTail(n - k)) return k;
  }
}

/**
 * One draw of Multinomial(n; sizes / Σ sizes) into `out`: the counts of n uniform draws among
 * Σ sizes things, `sizes[c]` of them in class c. Each count is binomial given what the classes
 * before it took.
 */
export function multinomial(u: Uniform, n: number, sizes: ArrayLike<number>, out: Float64Array): void {
  let left = n;
  let rest = 0;
  for (let c = 0; c < sizes.length; c++) rest += sizes[c];
  for (let c = 0; c < sizes.length; c++) {
    const k = left === 0 ? 0 : sizes[c] >= rest ? left : binomial(u, left, sizes[c] / rest);
    out[c] = k;
    left -= k;
    rest -= sizes[c];
  }
}
