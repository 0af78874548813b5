import { z } from "zod";
import { isStudyMetric, STUDY_FACTORS, STUDY_SERIES, type StudyFactor, type StudyMetric } from "../study/definitions";
import type { FailureMode } from "../analysis/types";
import { runHref } from "./run";
import { optInt, optNumber, optString, parseFields, toQuery, type RawSearchParams } from "./shared";

// URL state of /study (docs/study.md), shared by the page, GET /api/v1/study, the CSV export
// and `stepwise study` (whose flags are these names): the benchmark, what the chart plots,
// and the run filters.

/** Comma-separated names (models, families); names containing a comma cannot be listed. */
const nameList = z
  .string()
  .transform((s) => [...new Set(s.split(",").map((x) => x.trim().slice(0, 200)))].filter(Boolean).slice(0, 50))
  .transform((l) => (l.length ? l : undefined))
  .optional()
  .catch(undefined);

const metricParam = z
  .string()
  .refine(isStudyMetric)
  .transform((s) => s as StudyMetric)
  .catch("first_accuracy")
  .default("first_accuracy");

const schema = z.object({
  benchmark: optString(),
  x: z.enum(STUDY_FACTORS).catch("length").default("length"),
  series: z.enum(STUDY_SERIES).catch("model").default("model"),
  metric: metricParam,
  // run filters
  models: nameList,
  families: nameList,
  minSize: optNumber(0),
  maxSize: optNumber(0),
  thinking: z.enum(["yes", "no"]).optional().catch(undefined),
  lookback: optInt(1, 100000),
  inputRange: optString(),
  ops: optString(),
  dictSize: optInt(1, 100000000),
  k: optInt(1, 100000),
  turnMode: z.enum(["multi-turn", "single-turn"]).optional().catch(undefined),
  /** demo runs: all, only them (yes), none (no); absent: left out once real runs exist */
  demo: z.enum(["all", "yes", "no"]).optional().catch(undefined),
  // the cell whose runs are listed (a point several runs stand behind): series name and x value
  cs: optString(),
  cx: optString(),
});

export type StudyParams = z.infer<typeof schema>;
export const STUDY_PARAM_NAMES = Object.keys(schema.shape) as (keyof StudyParams)[];
export const STUDY_DEFAULTS: Pick<StudyParams, "x" | "series" | "metric"> = { x: "length", series: "model", metric: "first_accuracy" };

export function parseStudyParams(raw: RawSearchParams): StudyParams {
  return parseFields(schema, raw);
}

function query(p: Partial<StudyParams>): string {
  const { models, families, ...rest } = p;
  return toQuery({ ...rest, models: models?.join(","), families: families?.join(",") }, STUDY_DEFAULTS);
}

/** Canonical link of a study view; defaults are left out. */
export function studyHref(p: Partial<StudyParams>): string {
  return "/study" + query(p);
}

/** The same view as JSON (GET /api/v1/study). */
export function studyApiHref(p: Partial<StudyParams>): string {
  return "/api/v1/study" + query(p);
}

/** The same view as CSV. */
export function studyCsvHref(p: Partial<StudyParams>): string {
  return "/study/csv" + query(p);
}

/**
 * The items behind one cell of one run: its item table at that length (x = length; every
 * item of the run for a run-level x), narrowed to the failure mode when the metric is one.
 */
export function studyCellRunHref(runKey: string, x: StudyFactor, value: number | string, metric: StudyMetric): string {
  const atLength = x === "length" && typeof value === "number" ? { minLen: value, maxLen: value } : {};
  const mode = metric.startsWith("mode:")
    ? (metric.slice(5) as FailureMode)
    : metric === "under_execution_rate"
      ? "under-executed"
      : undefined;
  return runHref(runKey, { tab: "items", ...atLength, mode });
}
