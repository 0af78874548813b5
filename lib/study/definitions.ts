import { FAILURE_MODES, type FailureMode } from "../analysis/types";

// The study view's vocabulary (SPEC §4 metrics pivoted over runs): factors that can be the x
// axis, how runs are grouped into series, and the metrics a point can show. Shared by the URL
// schema, the query, the API, the CLI and the page.

export const STUDY_FACTORS = [
  "length",
  "lookback",
  "input_range",
  "ops",
  "dict_size",
  "k",
  "turn",
  "turn_mode",
  "size",
  "thinking",
] as const;
export type StudyFactor = (typeof STUDY_FACTORS)[number];

export const STUDY_SERIES = ["model", "family", "thinking", "all"] as const;
export type StudySeries = (typeof STUDY_SERIES)[number];

export const BASE_METRICS = [
  "first_accuracy",
  "last_accuracy",
  "exact_step_rate",
  "under_execution_rate",
  "step_accuracy",
  "task_accuracy",
  "h50",
] as const;
export type StudyMetric = (typeof BASE_METRICS)[number] | `mode:${FailureMode}`;
export const STUDY_METRICS: readonly StudyMetric[] = [...BASE_METRICS, ...FAILURE_MODES.map((m) => `mode:${m}` as const)];

export function isStudyMetric(s: string): s is StudyMetric {
  return (STUDY_METRICS as readonly string[]).includes(s);
}

/** Factors each benchmark defines (size and thinking come from the model, so every benchmark has them). */
export const BENCHMARK_FACTORS: Record<string, readonly StudyFactor[]> = {
  "procedural-arith": ["length", "lookback", "input_range", "ops", "size", "thinking"],
  "dict-sum": ["length", "dict_size", "k", "turn", "turn_mode", "size", "thinking"],
  generic: ["length", "size", "thinking"],
};

export function factorsOf(benchmark: string): readonly StudyFactor[] {
  return BENCHMARK_FACTORS[benchmark] ?? ["length", "size", "thinking"];
}

/** Factors read per generation (the others are one value per run). */
export const PER_GENERATION_FACTORS: readonly StudyFactor[] = ["length", "turn"];

/** Metrics that exist per turn (from the stored per-step aggregates; a turn's steps share its status). */
export const TURN_METRICS: readonly StudyMetric[] = ["task_accuracy", "step_accuracy"];

/**
 * Why a (x, metric) pair has no answer, or null when it has one: h50 is one number per run,
 * so it cannot be split by a per-generation factor; per turn only the step curves exist;
 * task accuracy is a curve over steps, only defined per turn here.
 */
export function unsupportedPair(x: StudyFactor, metric: StudyMetric): string | null {
  if (metric === "h50" && PER_GENERATION_FACTORS.includes(x)) return `h50 is one number per run: it cannot be split by ${x}`;
  if (x === "turn" && !TURN_METRICS.includes(metric)) return `per turn only task_accuracy and step_accuracy are stored (not ${metric})`;
  if (metric === "task_accuracy" && x !== "turn") return "task_accuracy is a curve over steps: use x=turn";
  return null;
}

export const FACTOR_LABELS: Record<StudyFactor, string> = {
  length: "length (steps)",
  lookback: "look-back depth",
  input_range: "input range",
  ops: "operation mix",
  dict_size: "dictionary size",
  k: "steps per turn K",
  turn: "turn",
  turn_mode: "multi- vs single-turn",
  size: "model size (B params)",
  thinking: "thinking",
};

export function metricLabel(m: StudyMetric): string {
  switch (m) {
    case "first_accuracy":
      return "first-answer accuracy";
    case "last_accuracy":
      return "last-answer accuracy";
    case "exact_step_rate":
      return "exact-step execution rate";
    case "under_execution_rate":
      return "under-execution rate";
    case "step_accuracy":
      return "step accuracy (locally correct steps)";
    case "task_accuracy":
      return "task accuracy (no mistake so far)";
    case "h50":
      return "H₀.₅ (steps)";
    default:
      return `rate of ${m.slice(5)}`;
  }
}

/** h50 is in steps; every other metric is a fraction. */
export const isFractionMetric = (m: StudyMetric) => m !== "h50";

/** What a point is and how its interval was made (the chart's legend; the API documents the same). */
export function studyLegend(series: StudySeries, metric: StudyMetric): string {
  const what =
    metric === "h50"
      ? "H₀.₅ is one number per run (steps): a model's runs are averaged; one run shows its stored bootstrap CI, several a bootstrap over runs."
      : metric === "step_accuracy"
        ? "Step accuracy = locally correct steps / reference steps; for one model the interval is a ratio interval with steps clustered by generation."
        : "Rates are shares of generations; for one model its runs are pooled and the interval is Wilson's.";
  const pooled =
    series === "model"
      ? "Each series is one model."
      : `Where a point holds several models it is the mean over models, each model weighted equally, with a 95% percentile bootstrap over models × ${metric === "h50" ? "runs" : "items"} (1,000 resamples, fixed seed).`;
  return `${pooled} ${what}`;
}
