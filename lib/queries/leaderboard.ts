import "server-only";
import { visibleRunsSql, type ReadContext } from "@/lib/read-context";
import { join, raw, sql } from "@/lib/store/sql";
import type { FailureMode } from "@/lib/analysis/types";
import { effectiveSort, type LeaderboardParams, type LeaderboardSortColumn } from "@/lib/url/leaderboard";
import { boardWhere, leaderboardRowOf, lengthStatsOf, orderOf, ROW_COLUMNS, whereOf } from "./leaderboard-query";
import { RUN_FROM, type RunFields } from "./run-fields";
import { numberOrNull, textOrNull } from "./sql-values";
import { matchesRunSearch, orderBenchmarks, pickLengths, rankByHorizon, type HorizonRank } from "./leaderboard-rank";

// The leaderboard: one row per run, filtered, sorted and paged in the store. Also served
// as JSON by GET /api/v1/leaderboard and exported by /export/leaderboard.

export interface LeaderboardRow extends RunFields {
  status: string;
  selfConditioning: boolean;
  /** a simulated run of `stepwise demo` */
  demo: boolean;
  h50: number | null;
  h50Lo: number | null;
  h50Hi: number | null;
  h50Censored: boolean | null;
  h80: number | null;
  l50: number | null;
  l50Lo: number | null;
  l50Hi: number | null;
  /** L50 beyond the longest tested length: an extrapolation, not a finding */
  l50Extrapolated: boolean;
  l80: number | null;
  p: number | null;
  predictedHorizon: number | null;
  firstAccuracy: number | null;
  lastAccuracy: number | null;
  scSlope: number | null;
  /** first-answer accuracy at each requested length (null where the run has no such length) */
  accuracyAt: { length: number; n: number; accuracy: number | null }[];
  /** generations showing each failure mode */
  failureModes: Record<FailureMode, number>;
  /** first-answer accuracy per tested length, for the sparkline */
  curve: { length: number; accuracy: number }[];
  /** leader of its benchmark on H_0.5, tied with it (CIs overlap), or neither */
  rank: HorizonRank;
}

export interface LeaderboardResult {
  rows: LeaderboardRow[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
  /** lengths shown in the "accuracy at" columns */
  at: number[];
  sort: LeaderboardSortColumn;
  dir: "asc" | "desc";
  /** demo runs left out because real runs exist (`?demo=1` shows them) */
  hiddenDemo: number;
}

export interface LeaderboardFilterOptions {
  /** benchmarks with runs on the leaderboard, the default first (orderBenchmarks) */
  benchmarks: string[];
  /** self-conditioning sweeps, which have their own page (/self-conditioning) */
  sweeps: number;
  variants: { benchmark: string; name: string }[];
  families: string[];
  sizes: number[];
}

export async function getLeaderboard(ctx: ReadContext, params: LeaderboardParams): Promise<LeaderboardResult> {
  const store = ctx.store;
  const board = await boardWhere(ctx, params);
  const where = sql`${board.where} AND ${whereOf(params)}`;
  const { sort, dir } = effectiveSort(params);
  const pageSize = params.pageSize;

  // Every filtered run's horizon: cheap columns, needed for the leader and ties whatever the
  // page. Ranks are taken before the search, which finds runs but does not re-rank them.
  const filtered = (
    await store.read(sql`
      SELECT r."id", r."key", r."benchmark", r."h50", r."h50Lo", r."h50Hi", m."name" AS "model", v."name" AS "variant"
      FROM ${RUN_FROM} WHERE ${where}`)
  ).map((r) => ({
    id: Number(r.id),
    key: String(r.key),
    benchmark: String(r.benchmark),
    h50: numberOrNull(r.h50),
    h50Lo: numberOrNull(r.h50Lo),
    h50Hi: numberOrNull(r.h50Hi),
    model: String(r.model),
    variant: String(r.variant),
  }));
  const ranks = rankByHorizon(filtered);
  const found = params.q ? filtered.filter((r) => matchesRunSearch(params.q, r)) : filtered;
  const total = found.length;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(params.page, pageCount);
  const pageWhere = params.q ? idIn(found.map((r) => r.id)) : where;
  const hiddenDemo = board.demoHidden
    ? Number(
        (
          await store.read(sql`
            SELECT COUNT(*) AS "n" FROM ${RUN_FROM}
            WHERE ${visibleRunsSql(ctx)} AND ${whereOf(params)} AND r."selfConditioning" = false AND r."demo" = true`)
        )[0].n,
      )
    : 0;

  // Default "accuracy at" lengths from every leaderboard run of the benchmark, whatever the
  // other filters and the search: columns stay put while filtering, and an import into another
  // benchmark cannot change them.
  let at = params.at ?? [];
  if (!params.at) {
    const lengths = await store.read(sql`
      SELECT s."length" FROM "RunLengthStat" s JOIN "Run" r ON r."id" = s."runId"
      WHERE ${board.where}${params.benchmark ? sql` AND r."benchmark" = ${params.benchmark}` : raw("")}`);
    at = pickLengths(lengths.map((l) => Number(l.length)));
  }

  let runs: Record<string, unknown>[];
  if (sort.startsWith("at:")) {
    // Accuracy at a length is not a run column: order the filtered ids by it here, then page.
    const length = Number(sort.slice(3));
    const stats = await store.read(sql`
      SELECT s."runId", s."n", s."firstCorrect" FROM ${RUN_FROM} JOIN "RunLengthStat" s ON s."runId" = r."id" AND s."length" = ${length}
      WHERE ${pageWhere}`);
    const acc = new Map(stats.map((s) => [Number(s.runId), Number(s.n) ? Number(s.firstCorrect) / Number(s.n) : null]));
    const sign = dir === "asc" ? 1 : -1;
    const ids = found
      .map((r) => ({ id: r.id, v: acc.get(r.id) ?? null }))
      .sort((a, b) => (a.v === null ? (b.v === null ? a.id - b.id : 1) : b.v === null ? -1 : sign * (a.v - b.v) || a.id - b.id))
      .slice((page - 1) * pageSize, page * pageSize)
      .map((r) => r.id);
    const rows = await store.read(sql`SELECT ${ROW_COLUMNS} FROM ${RUN_FROM} WHERE ${idIn(ids)}`);
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    runs = ids.map((id) => byId.get(id)).filter((r) => r !== undefined);
  } else {
    runs = await store.read(sql`
      SELECT ${ROW_COLUMNS} FROM ${RUN_FROM} WHERE ${pageWhere}
      ORDER BY ${orderOf(sort, dir)} LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`);
  }
  const stats = await lengthStatsOf(
    ctx,
    runs.map((r) => Number(r.id)),
  );
  const rows = runs.map((r) => leaderboardRowOf(r, stats.get(Number(r.id)) ?? [], at, ranks.get(Number(r.id)) ?? null));

  return { rows, total, page, pageSize, pageCount, at, sort, dir, hiddenDemo };
}

const idIn = (ids: number[]) => (ids.length ? sql`r."id" IN (${join(ids)})` : raw("1 = 0"));

/** Every filter row only offers values that exist among the leaderboard's runs. */
export async function getLeaderboardFilterOptions(ctx: ReadContext, params: LeaderboardParams): Promise<LeaderboardFilterOptions> {
  const store = ctx.store;
  const board = (await boardWhere(ctx, params)).where;
  const [benchmarks, variants, models, sweeps] = await Promise.all([
    store.read(sql`SELECT DISTINCT r."benchmark" FROM "Run" r WHERE ${board}`),
    store.read(sql`
      SELECT v."name", b."name" AS "benchmark" FROM "Variant" v JOIN "Benchmark" b ON b."id" = v."benchmarkId"
      WHERE EXISTS (SELECT 1 FROM "Run" r WHERE r."variantId" = v."id" AND ${board}) ORDER BY v."name", v."id"`),
    store.read(
      sql`SELECT m."family", m."paramsB" FROM "Model" m WHERE EXISTS (SELECT 1 FROM "Run" r WHERE r."modelId" = m."id" AND ${board})`,
    ),
    store.read(sql`SELECT COUNT(*) AS "n" FROM "Run" r WHERE ${visibleRunsSql(ctx)} AND r."selfConditioning" = true`),
  ]);
  const families = models.map((m) => textOrNull(m.family)).filter((f): f is string => !!f);
  const sizes = models.map((m) => numberOrNull(m.paramsB)).filter((s): s is number => s !== null);
  return {
    benchmarks: orderBenchmarks(benchmarks.map((b) => String(b.benchmark))),
    sweeps: Number(sweeps[0].n),
    variants: variants.map((v) => ({ benchmark: String(v.benchmark), name: String(v.name) })),
    families: [...new Set(families)].sort(),
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
  };
}
