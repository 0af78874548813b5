// Shared look of every chart: a neutral palette that stays readable in print and for
// colour-blind readers (Okabe–Ito hues), plus a second channel (marker shape, dash
// pattern) so series never depend on colour alone. Pure constants and helpers: safe to
// import from server and client files.
import type { FailureMode } from "@/lib/analysis/types";

/** Series colours, in order (Okabe–Ito, darkened where needed for contrast on white). */
export const SERIES_COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#8a6d00", "#56B4E9", "#444444", "#E69F00"] as const;

/** Marker shapes, in the same order as the colours. */
export const SERIES_SYMBOLS = ["circle", "square", "triangle", "diamond", "cross", "star", "wye", "circle"] as const;
export type SeriesSymbol = (typeof SERIES_SYMBOLS)[number];

export function seriesColor(i: number): string {
  return SERIES_COLORS[i % SERIES_COLORS.length];
}
export function seriesSymbol(i: number): SeriesSymbol {
  return SERIES_SYMBOLS[i % SERIES_SYMBOLS.length];
}

/** Dash patterns by meaning: observed curves solid, secondary dotted, predictions dashed. */
export const DASH = {
  solid: undefined,
  last: "5 3",
  step: "2 3",
  predicted: "8 4",
  marker: "3 3",
} as const;

/** Failure-mode colours (fixed per mode, so every chart and legend agrees). */
export const MODE_COLORS: Record<FailureMode, string> = {
  "missing-answer": "#6b7280",
  "format-error": "#a16207",
  "premature-answer": "#CC79A7",
  "self-correction": "#009E73",
  "under-executed": "#56B4E9",
  "extra-steps": "#E69F00",
  slip: "#D55E00",
};

export const MODE_LABELS: Record<FailureMode, string> = {
  "missing-answer": "Missing answer",
  "format-error": "Format error",
  "premature-answer": "Premature answer",
  "self-correction": "Self-correction",
  "under-executed": "Under-executed",
  "extra-steps": "Extra steps",
  slip: "Slip",
};

export const AXIS = {
  stroke: "#a3a3a3",
  tick: { fill: "#525252", fontSize: 12 },
  label: { fill: "#404040", fontSize: 12 },
  grid: "#e5e5e5",
} as const;

export function pct(x: number | null | undefined, digits = 0): string {
  if (x == null || !Number.isFinite(x)) return "—";
  return `${(x * 100).toFixed(digits)}%`;
}

export function num(x: number | null | undefined, digits = 1): string {
  if (x == null || !Number.isFinite(x)) return "—";
  return x.toFixed(digits);
}

/** Fills `{length}`, `{step}` … placeholders of an href template (values URL-encoded). */
export function fillHref(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? encodeURIComponent(String(values[k])) : m));
}

/** Powers of two (and the ends) inside [lo, hi]: readable ticks for a log-scaled length axis. */
export function logTicks(lo: number, hi: number): number[] {
  const out: number[] = [];
  if (!(lo > 0) || !(hi >= lo)) return out;
  for (let t = 2 ** Math.floor(Math.log2(lo)); t <= hi * 1.0001; t *= 2) if (t >= lo * 0.9999) out.push(t);
  if (out.length < 2) return [lo, hi];
  return out;
}

/** About `count` round ticks covering [lo, hi] (1, 2, 5 × 10^k steps), for linear step axes. */
export function linearTicks(lo: number, hi: number, count = 8): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + 1e-9; t += step) out.push(Math.round(t * 1e9) / 1e9);
  if (out[0] !== lo && lo > 0 && (out[0] ?? Infinity) - lo > step / 3) out.unshift(lo);
  return out;
}
