import "server-only";
import { visibleRunsSql, type ReadContext } from "@/lib/read-context";
import { sql } from "@/lib/store/sql";
import { numberOrNull, textOrNull } from "./sql-values";
import { floorCeilingFlag, slopeBootstrapCi, type RangeFlag } from "@/lib/analysis/selfcond-ci";
import type { RunExtras, RunMetricsJson } from "@/lib/analysis/types";
import { interceptFor, wilson } from "@/lib/analysis/stats";
import { MODEL_FIELDS_SQL, modelFieldsOf, RUN_FROM, type ModelFields } from "./run-fields";

// Self-conditioning view: every self-conditioning run's stored points (accuracy at the
// target turn per induced error rate) and its stored OLS slope. One series per run,
// labelled by model; the intercept of the drawn line follows from the stored slope.

export interface SelfCondRunRow extends ModelFields {
  key: string;
  label: string;
  variant: string;
  targetTurn: number | null;
  points: { rate: number; n: number; correct: number; accuracy: number; ci: [number, number] }[];
  slope: number | null;
  /** percentile bootstrap 95% interval of the slope: stored at load, recomputed (cheaply) for older runs */
  slopeCi: [number, number] | null;
  /** floor or ceiling effect of the sweep, if any */
  flag: RangeFlag | null;
  intercept: number | null;
  generations: number;
}

export interface SelfCondData {
  /** all models with self-conditioning runs (for the filter) */
  models: string[];
  /** runs of the selected models (all when none selected) */
  runs: SelfCondRunRow[];
}

/** The part of `key` after the prefix it shares with its siblings ("…__demo" → "demo"). */
function distinguishing(key: string, siblings: string[]): string {
  let n = 0;
  const others = siblings.filter((k) => k !== key);
  while (n < key.length && others.every((k) => k[n] === key[n])) n++;
  const cut = Math.max(key.lastIndexOf("__", n) + 2, key.lastIndexOf("_", n) + 1, 0);
  const rest = key.slice(Math.min(cut, n)).replace(/^[_-]+/, "");
  return rest || key;
}

export async function getSelfConditioning(ctx: ReadContext, models: string[]): Promise<SelfCondData> {
  const rows = (
    await ctx.store.read(sql`
      SELECT r."key", r."metrics", r."extras", r."scSlope", r."generationCount", v."name" AS "variant", ${MODEL_FIELDS_SQL}
      FROM ${RUN_FROM} WHERE ${visibleRunsSql(ctx)} AND r."selfConditioning" = true`)
  ).map((r) => ({
    key: String(r.key),
    metrics: String(r.metrics),
    extras: textOrNull(r.extras),
    scSlope: numberOrNull(r.scSlope),
    generationCount: Number(r.generationCount),
    variant: String(r.variant),
    model: modelFieldsOf(r),
  }));
  const all = [...new Set(rows.map((r) => r.model.model))].sort((a, b) => a.localeCompare(b));
  const wanted = models.filter((m) => all.includes(m));
  const chosen = rows
    .filter((r) => wanted.length === 0 || wanted.includes(r.model.model))
    .sort((a, b) => a.model.model.localeCompare(b.model.model) || a.key.localeCompare(b.key));
  const keysOf = new Map<string, string[]>();
  for (const r of chosen) keysOf.set(r.model.model, [...(keysOf.get(r.model.model) ?? []), r.key]);

  const runs = chosen.map<SelfCondRunRow>((r) => {
    let sc: RunMetricsJson["self_conditioning"] = null;
    try {
      sc = (JSON.parse(r.metrics) as RunMetricsJson).self_conditioning;
    } catch {
      sc = null;
    }
    const points = (sc?.points ?? []).map((p) => ({
      rate: p.induced_error_rate,
      n: p.n,
      correct: p.correct,
      accuracy: p.accuracy,
      ci: wilson(p.correct, p.n),
    }));
    const slope = sc?.slope ?? r.scSlope ?? null;
    let slopeCi: [number, number] | null | undefined;
    try {
      slopeCi = (JSON.parse(r.extras ?? "null") as RunExtras | null)?.self_conditioning_slope_ci;
    } catch {
      slopeCi = undefined;
    }
    return {
      key: r.key,
      label:
        (keysOf.get(r.model.model)?.length ?? 0) > 1
          ? `${r.model.model} (${distinguishing(r.key, keysOf.get(r.model.model)!)})`
          : r.model.model,
      ...r.model,
      variant: r.variant,
      targetTurn: sc?.target_turn ?? null,
      points,
      slope,
      slopeCi: slopeCi !== undefined ? slopeCi : sc ? slopeBootstrapCi(sc.points) : null,
      flag: sc ? floorCeilingFlag(sc.points) : null,
      intercept:
        slope == null
          ? null
          : interceptFor(
              points.map((p) => ({ x: p.rate, y: p.accuracy })),
              slope,
            ),
      generations: r.generationCount,
    };
  });
  return { models: all, runs };
}
