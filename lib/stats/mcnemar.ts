// McNemar's test for paired binary outcomes (pure). With b = pairs where only A is right
// and c = pairs where only B is right, H0 says a discordant pair is equally likely to go
// either way. Small discordant counts use the exact binomial test; larger ones the
// chi-square statistic with continuity correction (1 degree of freedom).

export interface McNemarResult {
  /** only A right */
  b: number;
  /** only B right */
  c: number;
  method: "exact" | "chi-square" | "none";
  /** chi-square statistic (continuity-corrected); null for the exact test */
  statistic: number | null;
  /** two-sided p-value; null when there are no discordant pairs */
  p: number | null;
}

/** Discordant totals below this use the exact binomial test. */
export const EXACT_BELOW = 25;

function logFactorial(n: number): number {
  let s = 0;
  for (let i = 2; i <= n; i++) s += Math.log(i);
  return s;
}

/** Two-sided exact binomial p-value for k = min(b, c) out of n = b + c at p = 1/2. */
export function exactBinomialTwoSided(b: number, c: number): number {
  const n = b + c;
  const k = Math.min(b, c);
  if (n === 0) return 1;
  const lnN = logFactorial(n);
  let tail = 0;
  let lnKf = 0; // ln i!
  let lnNmKf = logFactorial(n); // ln (n - i)!
  for (let i = 0; i <= k; i++) {
    if (i > 0) {
      lnKf += Math.log(i);
      lnNmKf -= Math.log(n - i + 1);
    }
    tail += Math.exp(lnN - lnKf - lnNmKf - n * Math.LN2);
  }
  return Math.min(1, 2 * tail);
}

/** erfc(x) for x ≥ 0 (Numerical Recipes' Chebyshev fit, relative error < 1.2e-7). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** Upper tail of the chi-square distribution with one degree of freedom. */
export function chiSquare1Sf(x: number): number {
  if (x <= 0) return 1;
  return erfc(Math.sqrt(x / 2));
}

export function mcnemar(b: number, c: number): McNemarResult {
  const n = b + c;
  if (n === 0) return { b, c, method: "none", statistic: null, p: null };
  if (n < EXACT_BELOW) return { b, c, method: "exact", statistic: null, p: exactBinomialTwoSided(b, c) };
  const stat = Math.max(0, Math.abs(b - c) - 1) ** 2 / n;
  return { b, c, method: "chi-square", statistic: stat, p: chiSquare1Sf(stat) };
}

/**
 * Holm's step-down adjustment of several p-values (one per run against the same baseline):
 * the i-th smallest of m is multiplied by m − i + 1, kept monotone and capped at 1, so that the
 * chance of any false "significant" among the m stays ≤ α. Nulls (no test) are skipped and
 * do not count in m.
 */
export function holmAdjust(ps: (number | null)[]): (number | null)[] {
  const tested = ps.map((p, i) => [p, i] as const).filter((e): e is readonly [number, number] => e[0] !== null);
  tested.sort((a, b) => a[0] - b[0]);
  const m = tested.length;
  const out: (number | null)[] = ps.map(() => null);
  let running = 0;
  tested.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    out[i] = running;
  });
  return out;
}
