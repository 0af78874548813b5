import "server-only";
import type { RunAccess } from "@/lib/auth/run-access";
import type { ReadContext } from "@/lib/read-context";
import { sql, type Sql } from "@/lib/store/sql";
import type { FailureMode } from "@/lib/analysis/types";
import type { RunParams } from "@/lib/url/run";

// Totals of the item table without scanning a run: from the stored per-length aggregates
// when the filters are ones they answer, otherwise a count that stops a few pages past the
// page shown (its cost follows the page number, not the size of the run).

export interface ItemTotal {
  total: number;
  /** true when the count stopped early: there are more than `total` matches */
  more: boolean;
}

export interface LengthStat {
  length: number;
  n: number;
  firstCorrect: number;
  /** JSON object failure mode -> count */
  modes: string;
}

/** A RunLengthStat row as read through the store's driver. */
export function lengthStatOf(r: Record<string, unknown>): LengthStat {
  return { length: Number(r.length), n: Number(r.n), firstCorrect: Number(r.firstCorrect), modes: String(r.modes) };
}

/** The run's stored per-length aggregates (a handful of rows): its lengths and its totals. */
export async function lengthStats(ctx: ReadContext, run: RunAccess): Promise<LengthStat[]> {
  const rows = await ctx.store.read<Record<keyof LengthStat, unknown>>(
    sql`SELECT "length", "n", "firstCorrect", "modes" FROM "RunLengthStat" WHERE "runId" = ${run.id} ORDER BY "length"`,
    { planOnce: true },
  );
  return rows.map(lengthStatOf);
}

/** Filters the RunLengthStat rows answer: length range, failed, or one failure mode (not both). */
function fromStats(p: RunParams): boolean {
  return !p.kind && !p.div && !p.q && !(p.failed && p.mode);
}

/**
 * Where a count stops. A search re-checks each match's text (on SQLite by inflating it), so its
 * count stops five pages past the page shown; other filters read index entries only and count
 * to 1,000 (docs/decisions.md, "Search").
 */
export function countCap(p: RunParams): number {
  return p.q ? (p.page + 5) * p.pageSize : Math.max(1000, (p.page + 5) * p.pageSize);
}

export async function countItems(ctx: ReadContext, run: RunAccess, p: RunParams, where: Sql, stats: LengthStat[]): Promise<ItemTotal> {
  // A run being written refreshes its aggregates now and then: count its rows instead.
  if (run.status === "complete" && fromStats(p)) {
    let total = 0;
    for (const s of stats) {
      if ((p.minLen !== undefined && s.length < p.minLen) || (p.maxLen !== undefined && s.length > p.maxLen)) continue;
      if (p.mode) total += (JSON.parse(s.modes) as Partial<Record<FailureMode, number>>)[p.mode as FailureMode] ?? 0;
      else total += p.failed ? s.n - s.firstCorrect : s.n;
    }
    return { total, more: false };
  }
  const cap = countCap(p);
  // No ORDER BY: the count stops after cap + 1 matches, in whatever order the plan finds them.
  const [row] = await ctx.store.read<{ n: unknown }>(
    sql`SELECT COUNT(*) AS "n" FROM (SELECT 1 FROM "Generation" g WHERE ${where} LIMIT ${cap + 1}) t`,
  );
  const n = Number(row.n);
  return n > cap ? { total: cap, more: true } : { total: n, more: false };
}
