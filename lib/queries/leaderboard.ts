import "server-only";
import { visibleRunsWhere, type ReadContext } from "@/lib/read-context";
import type { Prisma } from "@/lib/generated/sqlite/client";
import type { FailureMode } from "@/lib/analysis/types";
import { effectiveSort, type LeaderboardParams, type LeaderboardSortColumn } from "@/lib/url/leaderboard";
import { boardWhere, leaderboardRowOf, orderOf, ROW_SELECT, whereOf } from "./leaderboard-query";
import type { RunFields } from "./run-fields";
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
  const prisma = ctx.store.prisma;
  const board = await boardWhere(ctx, params);
  const where = { ...board, ...whereOf(params) };
  const { sort, dir } = effectiveSort(params);
  const pageSize = params.pageSize;

  // Every filtered run's horizon: cheap columns, needed for the leader and ties whatever the
  // page. Ranks are taken before the search, which finds runs but does not re-rank them.
  const filtered = await prisma.run.findMany({
    where,
    select: {
      id: true,
      key: true,
      benchmark: true,
      h50: true,
      h50Lo: true,
      h50Hi: true,
      model: { select: { name: true } },
      variant: { select: { name: true } },
    },
  });
  const ranks = rankByHorizon(filtered);
  const all = params.q
    ? filtered.filter((r) => matchesRunSearch(params.q, { key: r.key, model: r.model.name, variant: r.variant.name }))
    : filtered;
  const total = all.length;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(params.page, pageCount);
  const pageWhere: Prisma.RunWhereInput = params.q ? { id: { in: all.map((r) => r.id) } } : where;
  const hiddenDemo =
    board.demo === false
      ? await prisma.run.count({ where: { ...visibleRunsWhere(ctx), ...whereOf(params), selfConditioning: false, demo: true } })
      : 0;

  // Default "accuracy at" lengths from every leaderboard run of the benchmark, whatever the
  // other filters and the search: columns stay put while filtering, and an import into another
  // benchmark cannot change them.
  let at = params.at ?? [];
  if (!params.at) {
    const lengths = await prisma.runLengthStat.findMany({
      where: { run: { ...board, ...(params.benchmark ? { benchmark: params.benchmark } : {}) } },
      select: { length: true },
    });
    at = pickLengths(lengths.map((l) => l.length));
  }

  let runs;
  if (sort.startsWith("at:")) {
    // Accuracy at a length is not a run column: order the filtered ids by it here, then page.
    const length = Number(sort.slice(3));
    const stats = await prisma.runLengthStat.findMany({
      where: { run: pageWhere, length },
      select: { runId: true, n: true, firstCorrect: true },
    });
    const acc = new Map(stats.map((s) => [s.runId, s.n ? s.firstCorrect / s.n : null]));
    const sign = dir === "asc" ? 1 : -1;
    const ids = all
      .map((r) => ({ id: r.id, v: acc.get(r.id) ?? null }))
      .sort((a, b) => (a.v === null ? (b.v === null ? a.id - b.id : 1) : b.v === null ? -1 : sign * (a.v - b.v) || a.id - b.id))
      .slice((page - 1) * pageSize, page * pageSize)
      .map((r) => r.id);
    const found = await prisma.run.findMany({ where: { id: { in: ids } }, select: ROW_SELECT });
    runs = ids.map((id) => found.find((r) => r.id === id)!).filter(Boolean);
  } else {
    runs = await prisma.run.findMany({
      where: pageWhere,
      select: ROW_SELECT,
      orderBy: orderOf(sort, dir),
      skip: (page - 1) * pageSize,
      take: pageSize,
    });
  }

  const rows = runs.map((r) => leaderboardRowOf(r, at, ranks.get(r.id) ?? null));

  return { rows, total, page, pageSize, pageCount, at, sort, dir, hiddenDemo };
}

/** Every filter row only offers values that exist among the leaderboard's runs. */
export async function getLeaderboardFilterOptions(ctx: ReadContext, params: LeaderboardParams): Promise<LeaderboardFilterOptions> {
  const prisma = ctx.store.prisma;
  const board = await boardWhere(ctx, params);
  const [benchmarks, variants, models, sweeps] = await Promise.all([
    prisma.run.findMany({ where: board, select: { benchmark: true }, distinct: ["benchmark"] }),
    prisma.variant.findMany({
      where: { runs: { some: board } },
      select: { name: true, benchmark: { select: { name: true } } },
      orderBy: { name: "asc" },
    }),
    prisma.model.findMany({ where: { runs: { some: board } }, select: { family: true, paramsB: true } }),
    prisma.run.count({ where: { ...visibleRunsWhere(ctx), selfConditioning: true } }),
  ]);
  return {
    benchmarks: orderBenchmarks(benchmarks.map((b) => b.benchmark)),
    sweeps,
    variants: variants.map((v) => ({ benchmark: v.benchmark.name, name: v.name })),
    families: [...new Set(models.map((m) => m.family).filter((f): f is string => !!f))].sort(),
    sizes: [...new Set(models.map((m) => m.paramsB).filter((s): s is number => s !== null))].sort((a, b) => a - b),
  };
}
