import "server-only";
import type { Db } from "@/lib/db";
import { env, providerOf } from "@/lib/env";
import { Prisma } from "@/lib/generated/sqlite/client";
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

/** The run's stored per-length aggregates (a handful of rows): its lengths and its totals. */
export async function lengthStats(prisma: Db, runId: number): Promise<LengthStat[]> {
  const rows = await prisma.$queryRaw<Record<keyof LengthStat, unknown>[]>(
    Prisma.sql`SELECT "length", "n", "firstCorrect", "modes" FROM "RunLengthStat" WHERE "runId" = ${runId} ORDER BY "length"`,
  );
  return rows.map((r) => ({ length: Number(r.length), n: Number(r.n), firstCorrect: Number(r.firstCorrect), modes: String(r.modes) }));
}

/** Filters the RunLengthStat rows answer: length range, failed, or one failure mode (not both). */
function fromStats(p: RunParams): boolean {
  return !p.kind && !p.div && !p.q && !(p.failed && p.mode);
}

export async function countItems(prisma: Db, status: string, p: RunParams, where: Prisma.Sql, stats: LengthStat[]): Promise<ItemTotal> {
  // A run being written refreshes its aggregates now and then: count its rows instead.
  if (status === "complete" && fromStats(p)) {
    let total = 0;
    for (const s of stats) {
      if ((p.minLen !== undefined && s.length < p.minLen) || (p.maxLen !== undefined && s.length > p.maxLen)) continue;
      if (p.mode) total += (JSON.parse(s.modes) as Partial<Record<FailureMode, number>>)[p.mode as FailureMode] ?? 0;
      else total += p.failed ? s.n - s.firstCorrect : s.n;
    }
    return { total, more: false };
  }
  const cap = Math.max(1000, (p.page + 5) * p.pageSize);
  // No ORDER BY: the count stops after cap + 1 matches, in whatever order the plan finds them.
  const [row] = await prisma.$queryRaw<{ n: unknown }[]>(
    Prisma.sql`SELECT COUNT(*) AS "n" FROM (SELECT 1 FROM "Generation" g WHERE ${where} LIMIT ${cap + 1}) t`,
  );
  const n = Number(row.n);
  return n > cap ? { total: cap, more: true } : { total: n, more: false };
}

// Prisma binds each id as a parameter and SQLite statements take at most 999 of them.
const CANDIDATES = 900;

/**
 * SQLite: ids of the generations whose output may contain `q`, from the FTS5 trigram index
 * (prisma/migrations/sqlite/0004). Null when the index cannot narrow the search (text under 3
 * characters, LIKE wildcards, or a text so common that scanning the run in order with LIMIT
 * is cheaper). PostgreSQL needs nothing here: its pg_trgm index serves LIKE directly.
 */
export async function outputCandidates(prisma: Db, runId: number, q: string): Promise<number[] | null> {
  if (providerOf(env.DATABASE_URL) !== "sqlite" || q.length < 3 || /[%_\\]/.test(q)) return null;
  // A run loaded moments ago may still wait for its index (lib/store/search-index.ts).
  const [run] = await prisma.$queryRaw<{ searchIndexed: unknown }[]>(Prisma.sql`SELECT "searchIndexed" FROM "Run" WHERE "id" = ${runId}`);
  if (!run?.searchIndexed) return null;
  let rows: { id: number | bigint }[];
  try {
    rows = await prisma.$queryRawUnsafe(`SELECT rowid AS id FROM "GenerationFts" WHERE "output" LIKE ? LIMIT ${CANDIDATES + 1}`, `%${q}%`);
  } catch {
    return null; // a store without the index (or a build of SQLite without FTS5): scan instead
  }
  return rows.length > CANDIDATES ? null : rows.map((r) => Number(r.id));
}
