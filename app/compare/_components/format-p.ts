/** A p-value for reading: 3 significant digits, "< 0.0001" for tiny ones (a table cell under a "p" header). */
export function formatP(p: number | null | undefined): string {
  if (p == null || !Number.isFinite(p)) return "—";
  if (p < 0.0001) return "< 0.0001";
  if (p >= 0.1) return p.toFixed(2);
  return p.toPrecision(2);
}

/** "p = 0.032" or "p < 0.0001": the p-value as a statement in running text. */
export function pStatement(p: number | null | undefined): string {
  const v = formatP(p);
  if (v === "—") return "p —";
  return v.startsWith("<") ? `p ${v}` : `p = ${v}`;
}

/** A difference of rates in percentage points with its sign: "+5.0 pts", "−3 pts", "±0 pts". */
export function formatPts(d: number, digits = 1): string {
  const sign = d > 0 ? "+" : d < 0 ? "−" : "±";
  return `${sign}${Math.abs(d * 100).toFixed(digits)} pts`;
}

/** An interval of rates in percent: "[68.1, 77.4]" (digits after the point). */
export function formatPctCi(ci: [number, number] | null, digits = 1): string {
  if (!ci) return "";
  return `[${(ci[0] * 100).toFixed(digits)}, ${(ci[1] * 100).toFixed(digits)}]`;
}
