import "server-only";
import type { RunAccess } from "@/lib/auth/run-access";
import type { ReadContext } from "@/lib/read-context";
import { raw, sql, type Sql } from "@/lib/store/sql";
import { mcnemar } from "@/lib/stats/mcnemar";
import type { PairSummary } from "./compare";

// The paired comparison computed in the store: one GROUP BY over the join of two runs on
// (itemKey, epoch 0) gives the 2×2 table per length, a second the histogram of divergence
// shifts. That is one pass over both runs, so its result is kept in this process per pair of
// loaded runs (a run that is loaded again gets a new id; a running run is never cached).
// The item list is paged in SQL, one outcome class at a time, in (length, load order).
// On SQLite, conditions are written so no single-table index applies (`+a.length = +b.length`, `b.x - a.x`):
// a plain `b.firstDivergence IS NOT NULL` lets SQLite drive the join from B's
// firstDivergence index and scan a whole length of A per row (docs/decisions.md, figures);
// SQLite 3.53 (better-sqlite3) does so even for `a.length = +b.length`.

type Stats = Omit<PairSummary, "a" | "b" | "index" | "sameVariant">;
const cache = new Map<string, Stats>();
const CACHE_MAX = 64;

const n = (v: unknown) => Number(v ?? 0);
/** The outcome column: a fixed identifier, never user text. */
const col = (answer: "first" | "last") => raw(answer === "last" ? `"lastCorrect"` : `"firstCorrect"`);
// The `+` hints (ctx.dialect.hint(), SQLite only) keep B on (runId, itemKey): without
// `+b.epoch = 0` SQLite reaches B by its (runId, epoch, length, id) index and scans all of B per
// row of A. On PostgreSQL they are empty: there `+a.length = +b.length` hides the columns'
// statistics, the planner misjudges the join size and joins both runs whole for a page of 50.
const pairJoin = (hint: Sql, a: number, b: number) =>
  sql`FROM "Generation" a JOIN "Generation" b ON b."runId" = ${b} AND b."itemKey" = a."itemKey" AND ${hint}b."epoch" = 0
    WHERE a."runId" = ${a} AND a."epoch" = 0`;

async function computeStats(ctx: ReadContext, a: number, b: number, answer: "first" | "last"): Promise<Stats> {
  const store = ctx.store;
  const hint = ctx.dialect.hint();
  const c = col(answer);
  const [byLength, shifts, counts] = await Promise.all([
    store.read(sql`
      SELECT a."length" AS len,
        SUM(CASE WHEN a."length" = b."length" THEN 1 ELSE 0 END) AS n,
        SUM(CASE WHEN a."length" <> b."length" THEN 1 ELSE 0 END) AS mismatched,
        SUM(CASE WHEN a."length" = b."length" AND a.${c} = true AND b.${c} = true THEN 1 ELSE 0 END) AS both,
        SUM(CASE WHEN a."length" = b."length" AND a.${c} = true AND b.${c} = false THEN 1 ELSE 0 END) AS "onlyA",
        SUM(CASE WHEN a."length" = b."length" AND a.${c} = false AND b.${c} = true THEN 1 ELSE 0 END) AS "onlyB"
      ${pairJoin(hint, a, b)} GROUP BY a."length" ORDER BY a."length"`),
    store.read(sql`
      SELECT b."firstDivergence" - a."firstDivergence" AS d, COUNT(*) AS k
      ${pairJoin(hint, a, b)} AND ${hint}a."length" = ${hint}b."length" AND (b."firstDivergence" - a."firstDivergence") IS NOT NULL
      GROUP BY b."firstDivergence" - a."firstDivergence" ORDER BY d`),
    store.read(sql`
      SELECT "runId" AS run, COUNT(*) AS k FROM "Generation" WHERE "runId" IN (${a}, ${b}) AND "epoch" = 0 GROUP BY "runId"`),
  ]);
  const table = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
  let shared = 0;
  let mismatched = 0;
  const lengths: Stats["byLength"] = [];
  for (const r of byLength) {
    const rows = n(r.n);
    const [both, onlyA, onlyB] = [n(r.both), n(r.onlyA), n(r.onlyB)];
    mismatched += n(r.mismatched);
    if (!rows) continue;
    shared += rows;
    table.both += both;
    table.onlyA += onlyA;
    table.onlyB += onlyB;
    table.neither += rows - both - onlyA - onlyB;
    const accA = (both + onlyA) / rows;
    const accB = (both + onlyB) / rows;
    lengths.push({ length: n(r.len), n: rows, accA, accB, delta: (onlyB - onlyA) / rows, both, onlyA, onlyB });
  }
  const count = new Map(counts.map((r) => [n(r.run), n(r.k)]));
  return {
    shared,
    onlyA: (count.get(a) ?? 0) - shared - mismatched,
    onlyB: (count.get(b) ?? 0) - shared - mismatched,
    mismatched,
    table,
    accA: shared ? (table.both + table.onlyA) / shared : null,
    accB: shared ? (table.both + table.onlyB) / shared : null,
    test: mcnemar(table.onlyA, table.onlyB),
    divergence: shiftStats(shifts.map((r) => [n(r.d), n(r.k)])),
    byLength: lengths,
  };
}

/** Mean, median and signs of the shifts from their histogram (value, count) sorted by value. */
function shiftStats(hist: [number, number][]): Stats["divergence"] {
  const total = hist.reduce((t, [, k]) => t + k, 0);
  const at = (i: number) => {
    let seen = 0;
    for (const [d, k] of hist) if ((seen += k) > i) return d;
    return 0;
  };
  const sum = hist.reduce((t, [d, k]) => t + d * k, 0);
  const m = total >> 1;
  return {
    n: total,
    mean: total ? sum / total : null,
    median: total ? (total % 2 ? at(m) : (at(m - 1) + at(m)) / 2) : null,
    earlier: hist.filter(([d]) => d < 0).reduce((t, [, k]) => t + k, 0),
    later: hist.filter(([d]) => d > 0).reduce((t, [, k]) => t + k, 0),
    same: hist.filter(([d]) => d === 0).reduce((t, [, k]) => t + k, 0),
  };
}

export async function pairStats(ctx: ReadContext, a: RunAccess, b: RunAccess, answer: "first" | "last"): Promise<Stats> {
  const live = a.status !== "complete" || b.status !== "complete";
  const key = `${a.id}:${a.loadedAt.getTime()}:${b.id}:${b.loadedAt.getTime()}:${answer}`;
  const hit = live ? undefined : cache.get(key);
  if (hit) return hit;
  const stats = await computeStats(ctx, a.id, b.id, answer);
  if (!live) {
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(key, stats);
  }
  return stats;
}
