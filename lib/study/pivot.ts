import type { FailureMode } from "../analysis/types";
import { PER_GENERATION_FACTORS, unsupportedPair, type StudyFactor, type StudyMetric, type StudySeries } from "./definitions";
import {
  addRates,
  addRatios,
  poolRates,
  poolRatios,
  poolRunValues,
  type Interval,
  type PoolMethod,
  type RateCount,
  type RatioCount,
  type RunValue,
} from "./pool";

// The pivot of the study view: stored per-run aggregates in, one series per group of models
// out, one point per x value. Pure, so the API, the CLI and the page share it and the unit
// tests check it against hand-computed numbers.

export type FactorValue = number | string;

export interface StudyRunInfo {
  key: string;
  model: string;
  family: string | null;
  paramsB: number | null;
  thinking: boolean | null;
  /** run-level factors (variant and model); null when the run does not state it */
  factors: Partial<Record<StudyFactor, FactorValue | null>>;
  /** H₀.₅ in steps with its stored bootstrap CI; null when the run has no step trace */
  h50: RunValue | null;
}

/** One run × length row of the stored study aggregates (RunStudyStat). */
export interface LengthCell {
  run: string;
  length: number;
  n: number;
  firstCorrect: number;
  lastCorrect: number;
  exactStep: number;
  modes: Partial<Record<FailureMode, number>>;
  steps: RatioCount;
}

/** One run × turn, from the stored per-step aggregates: `n` items reach the turn. */
export interface TurnCell {
  run: string;
  turn: number;
  n: number;
  taskCorrect: number;
  stepCorrect: number;
}

export interface StudyPoint {
  x: FactorValue;
  /** a fraction (steps for h50); null when nothing behind the point has the metric */
  value: number | null;
  ci: Interval | null;
  /** generations behind the point (runs for h50) */
  n: number;
  /** models averaged (1: the point is that model's pooled rate) */
  models: number;
  method: PoolMethod;
  /** run keys behind the point, for the click-through */
  runs: string[];
  /** H₀.₅: a run behind the point is censored, so the value (and interval) is a lower bound */
  censored: boolean;
}

export interface StudySeriesResult {
  name: string;
  points: StudyPoint[];
}

export interface PivotInput {
  x: StudyFactor;
  series: StudySeries;
  metric: StudyMetric;
  runs: StudyRunInfo[];
  lengthCells: LengthCell[];
  turnCells: TurnCell[];
}

export class StudyParamError extends Error {}

export function seriesName(run: StudyRunInfo, series: StudySeries): string {
  switch (series) {
    case "model":
      return run.model;
    case "family":
      return run.family ?? "(no family)";
    case "thinking":
      return run.thinking === true ? "thinking" : run.thinking === false ? "no thinking" : "thinking not stated";
    case "all":
      return "all models";
  }
}

/** Orders x values: numbers ascending, then text. */
export function compareFactorValues(a: FactorValue, b: FactorValue): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

type Contribution = { kind: "rate"; v: RateCount } | { kind: "ratio"; v: RatioCount } | { kind: "value"; v: RunValue };

function fromLengthCell(c: LengthCell, metric: StudyMetric): Contribution | null {
  switch (metric) {
    case "first_accuracy":
      return { kind: "rate", v: { k: c.firstCorrect, n: c.n } };
    case "last_accuracy":
      return { kind: "rate", v: { k: c.lastCorrect, n: c.n } };
    case "exact_step_rate":
      return { kind: "rate", v: { k: c.exactStep, n: c.n } };
    case "under_execution_rate":
      return { kind: "rate", v: { k: c.modes["under-executed"] ?? 0, n: c.n } };
    case "step_accuracy":
      return c.steps.t > 0 ? { kind: "ratio", v: c.steps } : null;
    case "task_accuracy":
    case "h50":
      return null;
    default:
      return { kind: "rate", v: { k: c.modes[metric.slice(5) as FailureMode] ?? 0, n: c.n } };
  }
}

function fromTurnCell(c: TurnCell, metric: StudyMetric): Contribution | null {
  if (metric === "task_accuracy") return { kind: "rate", v: { k: c.taskCorrect, n: c.n } };
  if (metric === "step_accuracy") return { kind: "rate", v: { k: c.stepCorrect, n: c.n } };
  return null;
}

interface Bucket {
  /** by model name: the model's contributions summed (rates, ratios) or listed (per-run values) */
  models: Map<string, Contribution[]>;
  runs: Set<string>;
}

export function pivotStudy(input: PivotInput): StudySeriesResult[] {
  const why = unsupportedPair(input.x, input.metric);
  if (why) throw new StudyParamError(why);
  const runByKey = new Map(input.runs.map((r) => [r.key, r]));
  const buckets = new Map<string, Map<FactorValue, Bucket>>();
  const add = (run: StudyRunInfo, x: FactorValue, c: Contribution) => {
    const name = seriesName(run, input.series);
    let byX = buckets.get(name);
    if (!byX) buckets.set(name, (byX = new Map()));
    let b = byX.get(x);
    if (!b) byX.set(x, (b = { models: new Map(), runs: new Set() }));
    let list = b.models.get(run.model);
    if (!list) b.models.set(run.model, (list = []));
    list.push(c);
    b.runs.add(run.key);
  };

  if (input.metric === "h50") {
    for (const run of input.runs) {
      const x = run.factors[input.x];
      if (x === null || x === undefined || run.h50 === null) continue;
      add(run, x, { kind: "value", v: run.h50 });
    }
  } else if (input.x === "turn") {
    for (const c of input.turnCells) {
      const run = runByKey.get(c.run);
      const con = run && fromTurnCell(c, input.metric);
      if (run && con && c.n > 0) add(run, c.turn, con);
    }
  } else {
    for (const c of input.lengthCells) {
      const run = runByKey.get(c.run);
      if (!run) continue;
      const x = PER_GENERATION_FACTORS.includes(input.x) ? c.length : run.factors[input.x];
      const con = fromLengthCell(c, input.metric);
      if (x === null || x === undefined || !con || c.n === 0) continue;
      add(run, x, con);
    }
  }

  const out: StudySeriesResult[] = [];
  for (const name of [...buckets.keys()].sort()) {
    const byX = buckets.get(name)!;
    const points = [...byX.keys()].sort(compareFactorValues).map((x) => pointOf(x, byX.get(x)!));
    out.push({ name, points });
  }
  return out;
}

function pointOf(x: FactorValue, b: Bucket): StudyPoint {
  const perModel = [...b.models.values()];
  const kind = perModel[0][0].kind;
  let pooled;
  let n = 0;
  let censored = false;
  if (kind === "rate") {
    const models = perModel.map((cs) => cs.reduce((s, c) => addRates(s, c.v as RateCount), { k: 0, n: 0 }));
    n = models.reduce((s, m) => s + m.n, 0);
    pooled = poolRates(models);
  } else if (kind === "ratio") {
    const zero: RatioCount = { n: 0, c: 0, t: 0, cc: 0, ct: 0, tt: 0 };
    const models = perModel.map((cs) => cs.reduce((s, c) => addRatios(s, c.v as RatioCount), zero));
    n = models.reduce((s, m) => s + m.n, 0);
    pooled = poolRatios(models);
  } else {
    const models = perModel.map((cs) => cs.map((c) => c.v as RunValue));
    n = models.reduce((s, m) => s + m.length, 0);
    pooled = poolRunValues(models);
    censored = models.some((runs) => runs.some((r) => r.censored === true));
  }
  return { x, value: pooled.value, ci: pooled.ci, n, models: perModel.length, method: pooled.method, runs: [...b.runs].sort(), censored };
}
