import { pickLengths } from "../queries/leaderboard-rank";
import type { AccuracyAtLength, Horizon } from "../analysis/types";

// The words of a link preview (title, description) and what its image shows, from a run's
// stored numbers: pure, so the page metadata and the image say the same thing.

/** What a preview needs of a run (a subset of lib/queries/runs.ts RunSummary). */
export interface PreviewRun {
  key: string;
  model: { id: number; name: string };
  benchmark: string;
  variant: string;
  loadedAt: string;
  generations: number;
  metrics: { accuracy_by_length: AccuracyAtLength[]; horizon: Horizon | null };
}

export interface PreviewText {
  title: string;
  description: string;
}

export const SITE_TEXT: PreviewText = {
  title: "Stepwise",
  description: "How faithfully language models execute long step-by-step procedures: accuracy vs length, horizons, first divergences.",
};

const pct = (v: number) => `${Math.round(v * 100)}%`;

/** "H₀.₅ 23 steps (95% CI 18–27)", or "> 40" when censored at the longest length. */
export function horizonText(h: Horizon | null): string {
  if (!h) return "H₀.₅ n/a";
  const steps = h.censored ? `> ${fmt(h.steps)}` : fmt(h.steps);
  return `H₀.₅ ${steps} steps (95% CI ${fmt(h.ci[0])}–${fmt(h.ci[1])})`;
}

function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

/** First-answer accuracy at the default lengths (up to three spread over the run's range). */
export function accuracyAtLengths(points: AccuracyAtLength[]): { length: number; accuracy: number }[] {
  const at = new Map(points.map((p) => [p.length, p.first_accuracy]));
  return pickLengths(points.map((p) => p.length)).map((length) => ({ length, accuracy: at.get(length)! }));
}

export function accuracyText(points: AccuracyAtLength[]): string {
  const at = accuracyAtLengths(points);
  return at.length ? `accuracy ${at.map((a) => `${pct(a.accuracy)} at length ${a.length}`).join(", ")}` : "no accuracy by length";
}

export function runTitle(run: PreviewRun): string {
  return `${run.model.name} · ${run.benchmark}`;
}

export function runPreviewText(run: PreviewRun): PreviewText {
  return {
    title: runTitle(run),
    description: `${horizonText(run.metrics.horizon)} · ${accuracyText(run.metrics.accuracy_by_length)} · ${run.generations} generations (${run.variant})`,
  };
}

export function comparePreviewText(runs: PreviewRun[]): PreviewText {
  return {
    title: `Compare: ${runs.map((r) => r.model.name).join(" vs ")} · ${[...new Set(runs.map((r) => r.benchmark))].join(", ")}`,
    description: runs.map((r) => `${r.model.name}: ${horizonText(r.metrics.horizon)}`).join(" · "),
  };
}

export interface PreviewGeneration {
  itemId: string;
  length: number;
  firstDivergence: number | null;
  divergenceKind: string | null;
  firstCorrect: boolean;
  steps: number;
}

export function generationPreviewText(run: PreviewRun, g: PreviewGeneration): PreviewText {
  const divergence =
    g.firstDivergence === null
      ? g.steps
        ? "no divergence: every step matches the reference"
        : "no step trace"
      : `first divergence at step ${g.firstDivergence} of ${g.steps}${g.divergenceKind ? ` (${g.divergenceKind})` : ""}`;
  return {
    title: `${g.itemId} · ${runTitle(run)}`,
    description: `${divergence} · answer ${g.firstCorrect ? "right" : "wrong"} · length ${g.length} · ${run.model.name} on ${run.benchmark}`,
  };
}

/** The version a preview URL carries: the run's load time (a run loaded again gets a new one). */
export function runVersion(runs: { loadedAt: string | Date }[]): string {
  return runs.map((r) => new Date(r.loadedAt).getTime().toString(36)).join(".");
}

// Glyphs of next/og's bundled font (Geist Regular, `fc-query --format='%{charset}'`). A character
// outside it would make next/og fetch a font from Google Fonts, which an offline server cannot:
// such characters are drawn as "?" instead.
const FONT_RANGES: [number, number][] = [
  [0x20, 0x7e],
  [0xa0, 0xac],
  [0xae, 0x17e],
  [0x2013, 0x2014],
  [0x2018, 0x201e],
  [0x2020, 0x2022],
  [0x2026, 0x2026],
  [0x2080, 0x2089],
  [0x2190, 0x2199],
  [0x2212, 0x2212],
  [0x2264, 0x2265],
  [0x25b2, 0x25c1],
];

export function drawable(text: string, max = 120): string {
  let out = "";
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    out += FONT_RANGES.some(([lo, hi]) => c >= lo && c <= hi) ? ch : "?";
    if (out.length >= max) return out.slice(0, max - 1) + "…";
  }
  return out;
}
