// How step trace version 2 derives a value from others (lib/store/step-trace.ts): an expected
// value as one op over two of the WINDOW steps before, a claimed value as another value
// rounded to d decimals. The encoder tries these on the values and keeps one only where it
// gives the value exactly; the decoder applies the same arithmetic, so both sides agree.

/** Formula operands come from the WINDOW previous steps (the generator's lookback is 3 by default). */
export const WINDOW = 4;
export const FORMULA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"; // 4 ops × WINDOW²
/** Rounding to more decimals than this is not tried (toFixed allows 100; values print ≤ 17 digits). */
const MAX_DECIMALS = 20;
export const ROUND_EXPECTED = "abcdefghijklmnopqrstu";
export const ROUND_RECOMPUTED = "ABCDEFGHIJKLMNOPQRSTU";

/** The number formulas compute with: what a decoder holds for a value (JSON turns −0 into 0), NaN for text. */
export const num = (v: number | string | null | undefined): number => (typeof v === "number" ? (v === 0 ? 0 : v) : Number.NaN);

export function applyFormula(k: number, values: readonly number[], i: number): number {
  // k = op + 4 × (da − 1) + 4 × WINDOW × (db − 1)
  const a = values[i - 1 - ((k >> 2) % WINDOW)];
  const b = values[i - 1 - Math.floor(k / (4 * WINDOW))];
  switch (k & 3) {
    case 0:
      return a + b;
    case 1:
      return a - b;
    case 2:
      return a * b;
    default:
      return a / b;
  }
}

/**
 * The first formula k (applyFormula's numbering: op + 4·(da − 1) + 4·WINDOW·(db − 1)) that gives
 * `e` for step i from `values`, −1 for none: each pair of operands is read once for its four ops.
 */
export function firstFormula(values: readonly number[], i: number, e: number): number {
  const back = Math.min(i, WINDOW);
  for (let db = 0; db < back; db++) {
    const b = values[i - 1 - db];
    for (let da = 0; da < back; da++) {
      const a = values[i - 1 - da];
      const first = 4 * da + 4 * WINDOW * db;
      if (a + b === e) return first;
      if (a - b === e) return first + 1;
      if (a * b === e) return first + 2;
      if (a / b === e) return first + 3;
    }
  }
  return -1;
}

const POW10 = Array.from({ length: MAX_DECIMALS + 1 }, (_, d) => 10 ** d);

/**
 * The decimals a rounding to `c` would have kept: the fewest d where c is the nearest double to
 * a d-decimal number (its printed decimals, without printing it); −1 past MAX_DECIMALS.
 */
export function decimalsOf(c: number): number {
  for (let d = 0; d <= MAX_DECIMALS; d++) if (Math.round(c * POW10[d]) / POW10[d] === c) return d;
  return -1;
}

/** True when `c` is `base` rounded to d decimals; the distance test first spares most toFixed calls. */
export const roundsTo = (base: number, d: number, c: number): boolean => Math.abs(base - c) <= 1 / POW10[d] && roundTo(base, d) === c;

/**
 * `v` rounded to d decimals, exactly as `Number(v.toFixed(d))`. Most values skip toFixed's
 * string: where v·10^d (below 10^9, so its product is off by < 2·10^-7) is not within 10^-6 of
 * a half, Math.round finds the same integer n as toFixed, and n / 10^d (both exact) is the
 * double nearest to n·10^-d, as parsing toFixed's digits gives.
 */
export function roundTo(v: number, d: number): number {
  if (v === 0) return 0; // toFixed prints −0 as "0"
  const scaled = v * POW10[d];
  if (Math.abs(scaled) < 1e9) {
    const n = Math.round(scaled);
    if (Math.abs(Math.abs(scaled - n) - 0.5) > 1e-6) return n / POW10[d];
  }
  return Number(v.toFixed(d));
}
