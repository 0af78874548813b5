// Number formatting shared by every view, so the same quantity always reads the same way.
import { fmtLength, type LengthUnits } from "@/lib/analysis/length-unit";

export const DASH = "—";

export function fmtPct(x: number | null | undefined, digits = 0): string {
  return x === null || x === undefined || !Number.isFinite(x) ? DASH : (x * 100).toFixed(digits) + "%";
}

// One formatter per digit count: toLocaleString with options builds a new Intl.NumberFormat
// on every call, the largest cost of our own code in a profile of the run page.
const formatters = new Map<number, Intl.NumberFormat>();
function formatter(digits: number): Intl.NumberFormat {
  let f = formatters.get(digits);
  if (!f) formatters.set(digits, (f = new Intl.NumberFormat("en-US", { minimumFractionDigits: 0, maximumFractionDigits: digits })));
  return f;
}

export function fmtNum(x: number | null | undefined, digits = 1): string {
  if (x === null || x === undefined) return DASH;
  if (!Number.isFinite(x)) return "∞";
  return formatter(Number.isInteger(x) && digits <= 1 ? 0 : digits).format(x);
}

export function fmtInt(x: number | null | undefined): string {
  return x === null || x === undefined ? DASH : formatter(0).format(Math.round(x));
}

/** "[lo, hi]" for a CI, or "" when missing. */
export function fmtCI(lo: number | null | undefined, hi: number | null | undefined, fmt: (x: number) => string = (x) => fmtNum(x)): string {
  if (lo === null || lo === undefined || hi === null || hi === undefined) return "";
  return `[${fmt(lo)}, ${fmt(hi)}]`;
}

/** A horizon in steps; a censored one never fell below s within the tested lengths. */
export function fmtHorizon(steps: number | null | undefined, censored: boolean | null | undefined): string {
  if (steps === null || steps === undefined) return DASH;
  return (censored ? "≥ " : "") + fmtNum(steps, 1);
}

/** L50 beyond the longest tested length is shown as a bound, not as a finding (SPEC §4). */
export function fmtLengthFit(
  l: number | null | undefined,
  maxLength: number,
  unit: LengthUnits = "steps",
): { text: string; extrapolated: boolean } {
  if (l === null || l === undefined) return { text: DASH, extrapolated: false };
  if (l > maxLength) return { text: `> ${fmtLength(maxLength, unit === "mixed" ? "steps" : unit)} (extrapolated)`, extrapolated: true };
  // Minutes are fractional by nature (METR: 0.79 min); a step count below 1 is not.
  if (unit === "minutes") return { text: fmtLength(l, unit, 1), extrapolated: false };
  if (l < 1) return { text: "< 1 step", extrapolated: false };
  return { text: fmtNum(l, 1), extrapolated: false };
}

/** CI of a fitted length: bounds past the longest tested length are bounds, not numbers. */
export function fmtLengthCI(
  lo: number | null | undefined,
  hi: number | null | undefined,
  maxLength: number,
  unit: LengthUnits = "steps",
): string {
  if (lo === null || lo === undefined || hi === null || hi === undefined) return "";
  // a bound below one step is written as the point estimate is ("< 1 step"), not rounded to 0
  const b = (x: number) =>
    x > maxLength ? `> ${fmtInt(maxLength)}` : unit === "minutes" ? (x < 1 ? x.toFixed(2) : fmtNum(x, 1)) : x < 1 ? "< 1" : fmtNum(x, 1);
  return `[${b(lo)}, ${b(hi)}]${unit === "minutes" ? " min" : ""}`;
}

export function fmtP(p: number | null | undefined): string {
  return p === null || p === undefined ? DASH : p.toFixed(4);
}

export function fmtModelSize(paramsB: number | null | undefined): string {
  return paramsB === null || paramsB === undefined ? "" : fmtNum(paramsB, 1) + "B";
}

/** A step value as text: numbers rounded for reading, strings verbatim. */
export function fmtValue(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return DASH;
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(Math.round(v * 1e6) / 1e6);
  const n = Number(v);
  if (v.trim() !== "" && Number.isFinite(n) && /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(v.trim())) return fmtValue(n);
  return v;
}
