import { z } from "zod";
import { intParam, parseFields, type RawSearchParams } from "./shared";
import { runListParam, runListValue } from "./run-list";

// URL state of /compare: runs (the first is the baseline, the others are compared with it
// pairwise), which answer counts as the outcome, which pair the item list shows, the item
// list's filter and page.

export const COMPARE_SHOWS = ["discordant", "regressions", "improvements", "both-wrong", "shift", "all"] as const;
export type CompareShow = (typeof COMPARE_SHOWS)[number];

const schema = z.object({
  runs: runListParam,
  answer: z.enum(["first", "last"]).catch("first").default("first"),
  /** index (1-based, into runs) of the run compared with the baseline in the item list */
  vs: intParam(1, 1, 7),
  show: z.enum(COMPARE_SHOWS).catch("discordant").default("discordant"),
  page: intParam(1, 1, 1_000_000),
});

export type CompareParams = z.infer<typeof schema>;
export const COMPARE_PAGE_SIZE = 50;

export function parseCompareParams(raw: RawSearchParams): CompareParams {
  return parseFields(schema, raw);
}

export function compareHref(p: Partial<Omit<CompareParams, "runs">> & { runs?: string[] }): string {
  const parts: string[] = [];
  if (p.runs && p.runs.length) parts.push("runs=" + runListValue(p.runs));
  if (p.answer && p.answer !== "first") parts.push("answer=" + p.answer);
  if (p.vs && p.vs !== 1) parts.push("vs=" + p.vs);
  if (p.show && p.show !== "discordant") parts.push("show=" + p.show);
  if (p.page && p.page !== 1) parts.push("page=" + p.page);
  return "/compare" + (parts.length ? "?" + parts.join("&") : "");
}
