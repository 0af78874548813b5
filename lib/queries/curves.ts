import "server-only";
import { parseJsonOr } from "../json";
import { visibleRunsSql, type ReadContext } from "@/lib/read-context";
import { join, sql } from "@/lib/store/sql";
import type { AccuracyAtLength, CurvePoint, Horizon, RunExtras, RunMetricsJson } from "@/lib/analysis/types";
import { resolveRunKeys } from "@/lib/url/run-list";
import { RUN_FIELDS_SQL, RUN_FROM, runFieldsOf, type RunFields } from "./run-fields";
import { runLabels } from "./run-options";

// Data of the curves view: the stored SPEC §6 metrics and RunExtras of the selected runs,
// in the order of the URL. Nothing is recomputed here.

export interface CurveRun extends RunFields {
  label: string;
  accuracyByLength: AccuracyAtLength[];
  task: CurvePoint[] | null;
  step: CurvePoint[] | null;
  predicted: CurvePoint[] | null;
  horizon: Horizon | null;
  horizon80: Horizon | null;
  reliability: RunMetricsJson["reliability"];
  lengthFit: RunMetricsJson["length_fit"];
}

export interface CurvesData {
  runs: CurveRun[];
  /** link entries that match no loaded run */
  unknown: string[];
}

/** The stored curves of the URL's runs, among those `ctx`'s principal may see (a listing read). */
export async function getCurveRuns(ctx: ReadContext, pieces: string[]): Promise<CurvesData> {
  if (pieces.length === 0) return { runs: [], unknown: [] };
  // Candidate keys: every piece and every join of neighbouring pieces (keys with commas).
  const candidates = new Set<string>();
  for (let i = 0; i < pieces.length; i++)
    for (let j = i + 1; j <= Math.min(pieces.length, i + 4); j++) candidates.add(pieces.slice(i, j).join(","));
  const rows = await ctx.store.read(sql`
    SELECT ${RUN_FIELDS_SQL}, r."metrics", r."extras" FROM ${RUN_FROM}
    WHERE ${visibleRunsSql(ctx)} AND r."key" IN (${join([...candidates])})`);
  const byKey = new Map(rows.map((r) => [String(r.key), r]));
  const { keys, unknown } = resolveRunKeys(pieces, new Set(byKey.keys()));
  const selected = keys.map((k) => byKey.get(k)!);
  const fields = selected.map((r) => ({ ...runFieldsOf(r), metrics: String(r.metrics), extras: String(r.extras) }));
  const labels = runLabels(fields);
  const runs = fields.map<CurveRun>(({ metrics, extras, ...r }) => {
    const m = parseJsonOr<RunMetricsJson | null>(metrics, null);
    const x = parseJsonOr<RunExtras | null>(extras, null);
    return {
      ...r,
      label: labels.get(r.key) ?? r.model,
      maxLength: x?.max_length ?? r.maxLength,
      accuracyByLength: m?.accuracy_by_length ?? [],
      task: m?.task_accuracy ?? null,
      step: m?.step_accuracy ?? null,
      predicted: x?.predicted_task_accuracy ?? null,
      horizon: m?.horizon ?? null,
      horizon80: m?.horizon_80 ?? null,
      reliability: m?.reliability ?? null,
      lengthFit: m?.length_fit ?? null,
    };
  });
  return { runs, unknown };
}
