// The shared configuration of every chart: viewBox sizes, margins, type sizes, the theme tokens
// (CSS custom properties of the charts block in app/globals.css, so light/dark follow the
// system), dash patterns by meaning and failure-mode colours. Pure constants.
import type { FailureMode } from "@/lib/analysis/types";

export const CHART = {
  /**
   * Each chart is drawn twice on the server, at a wide and a narrow viewBox width, and CSS shows the
   * one that fits its container (a container query): text stays ~12 px on a 1280 px card and on a
   * 390 px phone, where one scaled SVG would shrink it to ~6 px.
   */
  wide: { width: 720, margin: { top: 22, right: 18, bottom: 46, left: 60 } },
  narrow: { width: 360, margin: { top: 22, right: 10, bottom: 44, left: 46 } },
  /** narrow height as a share of the wide one (a phone card is closer to square) */
  narrowHeightRatio: 0.9,
  font: { tick: 12, label: 12, note: 11 },
  markerRadius: 4,
} as const;

/** Theme tokens: every colour a chart draws that is not a series or mode colour. */
export const TOKEN = {
  ink: "var(--chart-ink)",
  muted: "var(--chart-muted)",
  axis: "var(--chart-axis)",
  grid: "var(--chart-grid)",
  surface: "var(--chart-surface)",
  reference: "var(--chart-reference)",
  bar: "var(--chart-bar)",
  heat: "var(--chart-heat)",
} as const;

/** Dash patterns by meaning: observed solid, step accuracy dotted, predictions dashed. */
export const DASH = {
  solid: undefined,
  last: "5 3",
  step: "2 3",
  predicted: "8 4",
  marker: "3 3",
  marker80: "1 3",
} as const;

export const MODE_LABELS: Record<FailureMode, string> = {
  "missing-answer": "Missing answer",
  "format-error": "Format error",
  "premature-answer": "Premature answer",
  "self-correction": "Self-correction",
  "under-executed": "Under-executed",
  "extra-steps": "Extra steps",
  slip: "Slip",
};

/** Failure-mode colours (fixed per mode, light and dark values in globals.css). */
export const MODE_COLORS: Record<FailureMode, string> = {
  "missing-answer": "var(--chart-mode-missing)",
  "format-error": "var(--chart-mode-format)",
  "premature-answer": "var(--chart-mode-premature)",
  "self-correction": "var(--chart-mode-selfcorr)",
  "under-executed": "var(--chart-mode-under)",
  "extra-steps": "var(--chart-mode-extra)",
  slip: "var(--chart-mode-slip)",
};

export function pct(x: number | null | undefined, digits = 0): string {
  if (x == null || !Number.isFinite(x)) return "—";
  return `${(x * 100).toFixed(digits)}%`;
}

export function num(x: number | null | undefined, digits = 1): string {
  if (x == null || !Number.isFinite(x)) return "—";
  return x.toFixed(digits);
}
