/** A p-value for reading: 3 significant digits, "< 0.0001" for tiny ones. */
export function formatP(p: number | null | undefined): string {
  if (p == null || !Number.isFinite(p)) return "—";
  if (p < 0.0001) return "< 0.0001";
  if (p >= 0.1) return p.toFixed(2);
  return p.toPrecision(2);
}
