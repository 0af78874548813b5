// The contract between the pure analysis core (lib/analysis, lib/native) and everything
// that stores or shows its results (lib/store, CLI, API, pages). Plain data only.

export const BENCHMARKS = ["procedural-arith", "dict-sum", "generic"] as const;
export type BenchmarkName = (typeof BENCHMARKS)[number];

export const STEP_STATUSES = ["correct", "slip", "propagated", "missing"] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];
/** One letter per status, as stored in Generation.statuses. */
export const STATUS_LETTER: Record<StepStatus, string> = {
  correct: "c",
  slip: "s",
  propagated: "p",
  missing: "m",
};

/** Order matters: Generation.modes stores bit i for FAILURE_MODES[i]. */
export const FAILURE_MODES = [
  "missing-answer",
  "format-error",
  "premature-answer",
  "self-correction",
  "under-executed",
  "extra-steps",
  "slip",
] as const;
export type FailureMode = (typeof FAILURE_MODES)[number];

export type StepValue = number | string;
export type Span = [start: number, end: number];

/** The `run` line of a native file, after validation. */
export interface RunHeader {
  key: string;
  model: { name: string; family?: string | null; params_b?: number | null; thinking?: boolean | null };
  benchmark: BenchmarkName;
  variant: { name: string; [param: string]: unknown };
  config: { [k: string]: unknown };
  source: { [k: string]: unknown } | null;
  created_at: string | null;
}

/** An `item` line after validation (fields as in SPEC §5). */
export interface NativeItem {
  id: string;
  length: number;
  epoch: number;
  input: { [k: string]: unknown };
  output: string | string[] | null;
  reference?: StepValue[];
  steps?: (StepValue | null)[];
  answer?: StepValue | null;
  usage?: { prompt_tokens?: number; completion_tokens?: number; [k: string]: unknown } | null;
  latency_ms?: number | null;
  cost_usd?: number | null;
  metadata?: unknown;
}

/** One reference step of one generation, aligned (SPEC §3). */
export interface StepRow {
  step: number; // 1-based
  status: StepStatus;
  expected: StepValue;
  /** the model's first statement of this step; null when missing */
  claimed: StepValue | null;
  /** the step recomputed from the model's own earlier values (arith, dict-sum); null when unknown */
  recomputed: StepValue | null;
  /** operands as the model had them, for showing a slip: [a, b] values and op (arith: null on a correct step) */
  operands?: { op: string; a: number; b: number; aValue: number; bValue: number } | null;
  /** character span of the first statement in the output text (turn text for multi-turn) */
  span: Span | null;
  turn?: number; // dict-sum: 1-based turn holding this step
}

export interface ClaimRef {
  step: number;
  value: StepValue | null;
  span: Span | null;
  turn?: number;
}

export interface AnswerRef {
  /** trimmed raw content */
  text: string;
  /** parsed number, null when unparseable */
  value: number | null;
  span: Span | null; // span of the whole answer markup
  kind: "answer-tag" | "boxed" | "final-answer" | "turn" | "list" | "given";
  turn?: number;
}

export interface TurnRow {
  turn: number; // 1-based
  keys: string[];
  values: number[];
  expected: number; // reference running sum at the end of the turn
  answer: number | null;
  answerText: string | null; // null when no tag
  status: StepStatus;
}

/** Everything the analysis knows about one generation. Pure data, JSON-serialisable. */
export interface GenerationAnalysis {
  length: number; // L, reference steps
  reference: StepValue[]; // length L
  steps: StepRow[]; // length L, step i at index i-1
  extras: ClaimRef[]; // claimed steps outside 1..L
  revised: ClaimRef[]; // later statements of a step with a different value
  answers: AnswerRef[]; // in text order
  firstAnswer: string | null;
  lastAnswer: string | null;
  firstCorrect: boolean;
  lastCorrect: boolean;
  firstDivergence: number | null;
  modes: FailureMode[];
  clean: boolean; // no failure mode and correct final (last) answer
  exactStep: boolean; // exactly the L reference steps, each once
  turns: TurnRow[] | null; // dict-sum only
  /** false for self-conditioning items (one target turn, no step curves): their `steps` and
   *  `reference` are empty and `turns` holds the single target turn */
  hasSteps: boolean;
  selfConditioning: { inducedErrorRate: number; targetTurn: number } | null;
  /** imported items whose length is not a step count (METR: human minutes); the length fit
   *  uses it instead of `length` when present (lib/analysis/weighted-fit) */
  lengthValue?: number | null;
  /** sample weight of this generation in the length fit (METR task weights); null = 1 */
  weight?: number | null;
}

/** Error found in an input line: names the field (dotted path, "-" when not JSON). */
export interface FieldError {
  field: string;
  message: string;
}

export interface LineError extends FieldError {
  file: string;
  line: number;
}

/** What metrics need of one generation: compact, so a run of 1M generations fits in memory. */
export interface GenerationSummary {
  itemKey: string;
  epoch: number;
  length: number;
  firstCorrect: boolean;
  lastCorrect: boolean;
  firstDivergence: number | null;
  /** one letter per step, as StepRow statuses (STATUS_LETTER); "" when !hasSteps */
  statuses: string;
  modes: number; // bitmask over FAILURE_MODES
  /** cluster for the hierarchical bootstrap when a run mixes variants; null otherwise */
  cluster: string | null;
  selfConditioning: { inducedErrorRate: number; targetTurn: number } | null;
  clean: boolean;
  exactStep: boolean;
  promptTokens: number | null;
  completionTokens: number | null;
  latencyMs: number | null;
  costUsd: number | null;
  /** see GenerationAnalysis.lengthValue / weight; absent for native items */
  lengthValue?: number | null;
  weight?: number | null;
}

export interface AccuracyAtLength {
  length: number;
  n: number;
  first_correct: number;
  first_accuracy: number;
  first_ci: [number, number];
  last_correct: number;
  last_accuracy: number;
  last_ci: [number, number];
}
export interface CurvePoint {
  step: number;
  n: number;
  accuracy: number;
}
export interface Horizon {
  s: number;
  steps: number;
  censored: boolean;
  ci: [number, number];
}
export interface SelfConditioningMetrics {
  target_turn: number;
  points: { induced_error_rate: number; n: number; correct: number; accuracy: number }[];
  slope: number | null;
}

/** SPEC §6, exactly; fields that do not apply are null. */
export interface RunMetricsJson {
  run: string;
  model: string;
  benchmark: string;
  variant: string;
  items: number;
  generations: number;
  accuracy_by_length: AccuracyAtLength[];
  task_accuracy: CurvePoint[] | null;
  step_accuracy: CurvePoint[] | null;
  horizon: Horizon | null;
  horizon_80: Horizon | null;
  reliability: { p: number; predicted_horizon: number | null } | null;
  length_fit: { l50: number; l50_ci: [number, number]; l80: number; l80_ci: [number, number] } | null;
  failure_modes: Record<FailureMode, number>;
  first_divergence_histogram: { step: number; count: number }[] | null;
  self_conditioning: SelfConditioningMetrics | null;
}

/** Extra numbers kept beside the §6 JSON (stored, shown by the views; not in §6). */
export interface RunExtras {
  /** failure-mode counts per length */
  modes_by_length: { length: number; n: number; modes: Record<FailureMode, number> }[];
  /** pass@k and pass^k over epochs, each over the `items` with at least k generations (absent
   *  in runs stored before it was kept); null when every item has one generation */
  pass_at_k: { k: number; pass_at_k: number; pass_hat_k: number; items?: number }[] | null;
  /** p̂^i prediction beside the task curve, i = 1..L_max; null when no steps */
  predicted_task_accuracy: CurvePoint[] | null;
  length_fit_coefficients: { slope: number; intercept: number } | null;
  /** largest tested length, for "> N steps (extrapolated)" */
  max_length: number;
  clean_executions: number;
  exact_step_executions: number;
  usage: { prompt_tokens: number; completion_tokens: number; latency_ms_mean: number | null; cost_usd: number } | null;
  /** bootstrap resamples that could be fitted (degenerate ones, with one length or one outcome, are skipped) */
  length_fit_bootstrap_fits?: number | null;
  /** dict-sum: turn task accuracy and turn accuracy per turn (`step` = turn); null otherwise */
  per_turn?: { K: number; task_accuracy: CurvePoint[]; turn_accuracy: CurvePoint[] } | null;
  /** self-conditioning: percentile bootstrap 95% interval of the slope (lib/analysis/selfcond-ci.ts); absent in runs stored before it */
  self_conditioning_slope_ci?: [number, number] | null;
}

/**
 * Generation.analysis as stored (JSON): what the trace-diff view needs beyond the
 * step trace record (Generation.stepTrace: status, expected, claimed, recomputed, span).
 */
export interface StoredGenerationAnalysis {
  answers: AnswerRef[];
  extras: ClaimRef[];
  revised: ClaimRef[];
  turns: TurnRow[] | null;
  exactStep: boolean;
  hasSteps: boolean;
  selfConditioning: { inducedErrorRate: number; targetTurn: number } | null;
  // The operand values of wrong steps are not stored (they were until migration 0014): the
  // trace diff derives them from the item's operations and the step trace.
}
