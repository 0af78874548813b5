// Exact binomial and multinomial draws, for the bootstrap (lib/analysis/bootstrap.ts): a resample
// of n items is one multinomial draw of per-class counts, made from binomials and uniform picks,
// so its cost follows the number of classes instead of the number of items (docs/decisions.md,
// "A resample's draws").
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

// A bootstrap's classes are mostly small and of few distinct sizes (10,000 items: 1,583 classes,
// 1,564 of them of 1–15 items). So a multinomial over them is drawn in two stages, both exact:
// how many draws fall in each group of equal-sized classes (a chain of binomials over the
// groups), then how those spread over the group's classes, which is a multinomial with equal
// shares: that many uniform picks of a class while they average few per class (a pick costs a
// few ns, a binomial draw tens), a chain of binomials otherwise.
const PICKS_PER_CLASS = 6;

/** Draws of Multinomial(n; sizes / Σ sizes) for fixed class sizes: the counts of n uniform draws among Σ sizes things, `sizes[c]` of them in class c. */
export class MultinomialSampler {
  /** per group: its classes' size × how many they are */
  private readonly groupWeight: Float64Array;
  /** group g's classes are members[start[g] .. start[g + 1]) */
  private readonly start: Int32Array;
  private readonly members: Int32Array;
  private readonly groupCount: Float64Array;

  constructor(private readonly sizes: ArrayLike<number>) {
    const bySize = new Map<number, number[]>();
    for (let c = 0; c < sizes.length; c++) {
      if (!(sizes[c] >= 0)) throw new Error(`class ${c}: size ${sizes[c]}`);
      if (sizes[c] === 0) continue;
      const list = bySize.get(sizes[c]);
      if (list) list.push(c);
      else bySize.set(sizes[c], [c]);
    }
    const groups = [...bySize].sort((a, b) => a[0] - b[0]);
    this.groupWeight = Float64Array.from(groups, ([size, list]) => size * list.length);
    this.start = new Int32Array(groups.length + 1);
    groups.forEach(([, list], g) => (this.start[g + 1] = this.start[g] + list.length));
    this.members = Int32Array.from(groups.flatMap(([, list]) => list));
    this.groupCount = new Float64Array(groups.length);
  }

  /** One draw of n into `out` (one count per class). */
  draw(u: Uniform, n: number, out: Float64Array): void {
    out.fill(0, 0, this.sizes.length);
    chain(u, n, this.groupWeight, this.groupCount);
    const { start, members } = this;
    for (let g = 0; g < this.groupCount.length; g++) {
      let k = this.groupCount[g];
      const from = start[g];
      const m = start[g + 1] - from;
      if (m === 1) out[members[from]] = k;
      else if (k <= PICKS_PER_CLASS * m) for (; k > 0; k--) out[members[from + Math.floor(u() * m)]]++;
      else
        for (let j = 0; j < m; j++) {
          const c = j === m - 1 ? k : binomial(u, k, 1 / (m - j));
          out[members[from + j]] = c;
          k -= c;
        }
    }
  }
}

/** Multinomial(n; weights / Σ weights) into `out`, each count binomial given what the classes before it took. */
function chain(u: Uniform, n: number, weights: Float64Array, out: Float64Array): void {
  let left = n;
  let rest = 0;
  for (let c = 0; c < weights.length; c++) rest += weights[c];
  for (let c = 0; c < weights.length; c++) {
    const k = left === 0 ? 0 : weights[c] >= rest ? left : binomial(u, left, weights[c] / rest);
    out[c] = k;
    left -= k;
    rest -= weights[c];
  }
}
