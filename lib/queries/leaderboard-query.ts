import "server-only";
import { emptyModeCounts } from "@/lib/analysis/failure-modes";
import { FAILURE_MODES, type FailureMode } from "@/lib/analysis/types";
import { visibleRunsSql, type ReadContext } from "@/lib/read-context";
import { join, raw, sql, type Sql } from "@/lib/store/sql";
import type { LeaderboardParams, LeaderboardSortColumn } from "@/lib/url/leaderboard";
import type { LeaderboardRow } from "./leaderboard";
import { predictedHorizon, type HorizonRank } from "./leaderboard-rank";
import { RUN_FIELDS_SQL, runFieldsOf } from "./run-fields";
import { lengthStatOf, type LengthStat } from "./item-count";
import { numberOrNull } from "./sql-values";

// The leaderboard's store conditions (which runs, filtered and ordered how), the columns a row
// reads, and how a stored run becomes a row, as SQL over RUN_FROM (run r, model m, variant v).
// lib/queries/leaderboard.ts runs the queries.

const all = (conditions: Sql[]): Sql => (conditions.length ? join(conditions, " AND ") : raw("1 = 1"));

/**
 * Runs that belong on a leaderboard, among those the principal may see: not self-conditioning
 * sweeps (accuracy against an induced error rate, not against length: /self-conditioning ranks
 * those), and not demo runs once real runs exist, unless the URL asks for them. Over `r` only.
 */
export async function boardWhere(ctx: ReadContext, p: LeaderboardParams): Promise<{ where: Sql; demoHidden: boolean }> {
  const visible = visibleRunsSql(ctx);
  const demoHidden =
    !p.demo &&
    (
      await ctx.store.read(
        sql`SELECT 1 AS "real" FROM "Run" r WHERE ${visible} AND r."demo" = false AND r."selfConditioning" = false LIMIT 1`,
      )
    ).length > 0;
  return { where: all([visible, raw(`r."selfConditioning" = false`), ...(demoHidden ? [raw(`r."demo" = false`)] : [])]), demoHidden };
}

/** The URL's filters (access and the board's own conditions come from boardWhere). */
export function whereOf(p: LeaderboardParams): Sql {
  const c: Sql[] = [];
  if (p.benchmark) c.push(sql`r."benchmark" = ${p.benchmark}`);
  if (p.variant) c.push(sql`v."name" = ${p.variant}`);
  if (p.family) c.push(sql`m."family" = ${p.family}`);
  if (p.thinking) c.push(sql`m."thinking" = ${p.thinking === "yes"}`);
  if (p.minSize !== undefined) c.push(sql`m."paramsB" >= ${p.minSize}`);
  if (p.maxSize !== undefined) c.push(sql`m."paramsB" <= ${p.maxSize}`);
  return all(c);
}

/** The run columns a sort orders by: fixed identifiers, never the URL's text. */
const SORT_COLUMN: Record<string, string> = {
  model: `m."name"`,
  benchmark: `r."benchmark"`,
  variant: `v."name"`,
  size: `m."paramsB"`,
  items: `r."itemCount"`,
  h50: `r."h50"`,
  h80: `r."h80"`,
  l50: `r."l50"`,
  p: `r."p"`,
  firstAccuracy: `r."firstAccuracy"`,
  lastAccuracy: `r."lastAccuracy"`,
  scSlope: `r."scSlope"`,
};

/**
 * ORDER BY of a sort: the column (runs without a value last either way), then the run's key.
 * H_0.5 first breaks ties by its CI's lower bound, as the leader is chosen (byHorizon).
 */
export function orderOf(sort: LeaderboardSortColumn, dir: "asc" | "desc"): Sql {
  const d = dir === "asc" ? "ASC" : "DESC";
  const column = SORT_COLUMN[sort] ?? SORT_COLUMN.h50;
  const lowerBound = column === SORT_COLUMN.h50 ? `COALESCE(r."h50Lo", r."h50") ${d}, ` : "";
  return raw(`${column} ${d} NULLS LAST, ${lowerBound}r."key" ASC`);
}

export const ROW_COLUMNS = raw(
  `${RUN_FIELDS_SQL.sql}, r."id", r."status", r."selfConditioning", r."demo", r."h50", r."h50Lo", r."h50Hi", r."h50Censored", r."h80", r."l50", r."l50Lo", r."l50Hi", r."l80", r."p", r."firstAccuracy", r."lastAccuracy", r."scSlope"`,
);

/** The per-length counts of `runIds`, in length order. */
export async function lengthStatsOf(ctx: ReadContext, runIds: number[]): Promise<Map<number, LengthStat[]>> {
  const out = new Map<number, LengthStat[]>(runIds.map((id) => [id, []]));
  if (runIds.length === 0) return out;
  const rows = await ctx.store.read(sql`
    SELECT "runId", "length", "n", "firstCorrect", "modes" FROM "RunLengthStat" WHERE "runId" IN (${join(runIds)}) ORDER BY "runId", "length"`);
  for (const r of rows) out.get(Number(r.runId))?.push(lengthStatOf(r));
  return out;
}

/** A stored run (ROW_COLUMNS) and its per-length counts as a leaderboard row, with "accuracy at" the lengths `at`. */
export function leaderboardRowOf(r: Record<string, unknown>, stats: LengthStat[], at: number[], rank: HorizonRank): LeaderboardRow {
  const failureModes = emptyModeCounts();
  for (const s of stats) {
    const m = JSON.parse(s.modes) as Partial<Record<FailureMode, number>>;
    for (const f of FAILURE_MODES) failureModes[f] += m[f] ?? 0;
  }
  const byLength = new Map(stats.map((s) => [s.length, s]));
  const fields = runFieldsOf(r);
  const l50 = numberOrNull(r.l50);
  const p = numberOrNull(r.p);
  return {
    ...fields,
    status: String(r.status),
    selfConditioning: Boolean(r.selfConditioning),
    demo: Boolean(r.demo),
    h50: numberOrNull(r.h50),
    h50Lo: numberOrNull(r.h50Lo),
    h50Hi: numberOrNull(r.h50Hi),
    h50Censored: r.h50Censored === null ? null : Boolean(r.h50Censored),
    h80: numberOrNull(r.h80),
    l50,
    l50Lo: numberOrNull(r.l50Lo),
    l50Hi: numberOrNull(r.l50Hi),
    l80: numberOrNull(r.l80),
    l50Extrapolated: l50 !== null && l50 > fields.maxLength,
    p,
    predictedHorizon: predictedHorizon(p),
    firstAccuracy: numberOrNull(r.firstAccuracy),
    lastAccuracy: numberOrNull(r.lastAccuracy),
    scSlope: numberOrNull(r.scSlope),
    accuracyAt: at.map((length) => {
      const s = byLength.get(length);
      return { length, n: s?.n ?? 0, accuracy: s && s.n ? s.firstCorrect / s.n : null };
    }),
    failureModes,
    curve: stats.filter((s) => s.n > 0).map((s) => ({ length: s.length, accuracy: s.firstCorrect / s.n })),
    rank,
  };
}
