import { z } from "zod";
import { parseFields, runPath, type RawSearchParams } from "./shared";
import { runListParam, runListValue } from "./run-list";

// URL state of /curves: selected runs, which answer the accuracy chart shows, the x scale
// of both charts, and which step curves are drawn.

export const ANSWERS = ["first", "last", "both"] as const;
export const X_SCALES = ["linear", "log"] as const;

const schema = z.object({
  runs: runListParam,
  answer: z.enum(ANSWERS).catch("first").default("first"),
  x: z.enum(X_SCALES).catch("linear").default("linear"),
  /** hide the p̂^i prediction */
  nopred: z
    .string()
    .transform((s) => s === "1")
    .optional()
    .transform((v) => v ?? false),
  /** hide the step accuracy s(i) */
  nostep: z
    .string()
    .transform((s) => s === "1")
    .optional()
    .transform((v) => v ?? false),
  /** hide the horizon markers */
  nohz: z
    .string()
    .transform((s) => s === "1")
    .optional()
    .transform((v) => v ?? false),
});

export type CurvesParams = z.infer<typeof schema>;

export function parseCurvesParams(raw: RawSearchParams): CurvesParams {
  return parseFields(schema, raw);
}

/** Canonical link of a curves view; defaults are left out. Keys keep literal commas. */
export function curvesHref(p: Partial<CurvesParams> & { runs?: string[] }): string {
  const parts: string[] = [];
  if (p.runs && p.runs.length) parts.push("runs=" + runListValue(p.runs));
  if (p.answer && p.answer !== "first") parts.push("answer=" + p.answer);
  if (p.x && p.x !== "linear") parts.push("x=" + p.x);
  if (p.nopred) parts.push("nopred=1");
  if (p.nostep) parts.push("nostep=1");
  if (p.nohz) parts.push("nohz=1");
  return "/curves" + (parts.length ? "?" + parts.join("&") : "");
}

/** Href template of a run's item table at one length (`{length}` filled by the chart). */
export function itemsAtLengthTemplate(runKey: string): string {
  return runPath(runKey) + "?tab=items&minLen={length}&maxLen={length}";
}
