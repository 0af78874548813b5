// Number matching and plain-decimal parsing shared by every benchmark (SPEC §2.1).

export interface Tolerance {
  abs: number;
  rel: number;
}

export const DEFAULT_TOLERANCE: Tolerance = { abs: 0.0005, rel: 0.0001 };

/**
 * match(u, v) ⇔ |u − v| ≤ max(abs, rel·|v|). `v` is the reference side, so the relative
 * part scales with the value the model should have produced, not with its (possibly wild) claim.
 */
export function match(u: number, v: number, tol: Tolerance = DEFAULT_TOLERANCE): boolean {
  if (!Number.isFinite(u) || !Number.isFinite(v)) return u === v && !Number.isNaN(u);
  return Math.abs(u - v) <= Math.max(tol.abs, tol.rel * Math.abs(v));
}

/**
 * Reads `run.config.tolerance`. Accepted shapes (missing parts keep the default):
 *   {"abs": 0.001, "rel": 0.0002}  or  {"tol_abs": 0.001, "tol_rel": 0.0002}.
 * Returns the default when absent; throws a message when present but malformed, so the run
 * line can be rejected with field `config.tolerance`.
 */
export function toleranceFromConfig(config: { [k: string]: unknown } | null | undefined): Tolerance {
  const raw = config?.tolerance;
  if (raw === undefined || raw === null) return DEFAULT_TOLERANCE;
  if (typeof raw !== "object" || Array.isArray(raw)) {
    throw new Error("tolerance must be an object {abs, rel} or {tol_abs, tol_rel}");
  }
  const o = raw as Record<string, unknown>;
  const pick = (a: string, b: string, dflt: number): number => {
    const v = o[a] ?? o[b];
    if (v === undefined || v === null) return dflt;
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
      throw new Error(`tolerance.${o[a] !== undefined ? a : b} must be a non-negative number`);
    }
    return v;
  };
  return { abs: pick("abs", "tol_abs", DEFAULT_TOLERANCE.abs), rel: pick("rel", "tol_rel", DEFAULT_TOLERANCE.rel) };
}

// Optional sign (ASCII or U+2212 minus), digits with optional fraction, or a bare fraction.
const PLAIN_DECIMAL = /^[+\-\u2212]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A plain decimal such as `-151.837` or `12` → number; anything else (`1e3`, `1/2`, `ten`) → null. */
export function parsePlainDecimal(text: string): number | null {
  const t = text.trim();
  if (t.length === 0 || t.length > 400 || !PLAIN_DECIMAL.test(t)) return null;
  const v = Number(t.replace("\u2212", "-"));
  return Number.isFinite(v) ? v : null;
}

const PLAIN_INTEGER = /^[+\-\u2212]?\d+$/;

/** Optional sign and digits only (dict-sum answers); anything else → null. */
export function parseInteger(text: string): number | null {
  const t = text.trim();
  if (t.length === 0 || t.length > 400 || !PLAIN_INTEGER.test(t)) return null;
  const v = Number(t.replace("\u2212", "-"));
  return Number.isSafeInteger(v) ? v : null;
}

/** Rounds half away from zero to `digits` decimals (symmetric for negative answers). */
export function roundTo(x: number, digits: number): number {
  if (!Number.isFinite(x)) return x;
  const f = 10 ** digits;
  const r = Math.round(Math.abs(x) * f) / f;
  return x < 0 ? -r : r;
}

/**
 * Compares two step values of unknown kind (generic benchmark): numbers with the tolerance,
 * strings exactly after trimming; a number against a numeric string compares as numbers.
 */
export function valuesMatch(claimed: unknown, reference: unknown, tol: Tolerance = DEFAULT_TOLERANCE): boolean {
  if (typeof reference === "number") {
    const u = typeof claimed === "number" ? claimed : typeof claimed === "string" ? parsePlainDecimal(claimed) : null;
    return u !== null && match(u, reference, tol);
  }
  if (typeof reference === "string") {
    if (typeof claimed === "string") return claimed.trim() === reference.trim();
    if (typeof claimed === "number") {
      const v = parsePlainDecimal(reference);
      return v !== null && match(claimed, v, tol);
    }
  }
  return false;
}
