import "server-only";
import { lengthUnitOfJson, type LengthUnit } from "../analysis/length-unit";
import { visibleRunsWhere, type ReadContext } from "@/lib/read-context";
import type { Prisma } from "@/lib/generated/sqlite/client";
import { FAILURE_MODES, type FailureMode } from "@/lib/analysis/types";
import { effectiveSort, type LeaderboardParams, type LeaderboardSortColumn } from "@/lib/url/leaderboard";
import { emptyModeCounts } from "@/lib/analysis/failure-modes";
import { matchesRunSearch, orderBenchmarks, pickLengths, predictedHorizon, rankByHorizon, type HorizonRank } from "./leaderboard-rank";

// The leaderboard: one row per run, filtered, sorted and paged in the store. Also served
// as JSON by GET /api/v1/leaderboard and exported by /export/leaderboard.

export interface LeaderboardRow {
  key: string;
  model: string;
  family: string | null;
  paramsB: number | null;
  thinking: boolean | null;
  benchmark: string;
  variant: string;
  status: string;
  items: number;
  generations: number;
  maxLength: number;
  hasSteps: boolean;
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
  /** what lengths count (METR runs: human minutes) */
  lengthUnit: LengthUnit;
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

/**
 * Runs that belong on a leaderboard, among those the principal may see: not self-conditioning
 * sweeps (accuracy against an induced error rate, not against length: /self-conditioning ranks
 * those), and not demo runs once real runs exist, unless the URL asks for them.
 */
async function boardWhere(ctx: ReadContext, p: LeaderboardParams): Promise<Prisma.RunWhereInput> {
  const visible = visibleRunsWhere(ctx);
  const hideDemo = !p.demo && (await ctx.store.prisma.run.count({ where: { ...visible, demo: false, selfConditioning: false } })) > 0;
  return { ...visible, selfConditioning: false, ...(hideDemo ? { demo: false } : {}) };
}

/** The URL's filters (access and the board's own conditions come from boardWhere). */
function whereOf(p: LeaderboardParams): Prisma.RunWhereInput {
  const model: Prisma.ModelWhereInput = {};
  if (p.family) model.family = p.family;
  if (p.thinking) model.thinking = p.thinking === "yes";
  if (p.minSize !== undefined || p.maxSize !== undefined) model.paramsB = { gte: p.minSize, lte: p.maxSize };
  return {
    ...(p.benchmark ? { benchmark: p.benchmark } : {}),
    ...(p.variant ? { variant: { name: p.variant } } : {}),
    ...(Object.keys(model).length ? { model } : {}),
  };
}

function orderOf(sort: LeaderboardSortColumn, dir: "asc" | "desc"): Prisma.RunOrderByWithRelationInput[] {
  const num = (field: keyof Prisma.RunOrderByWithRelationInput) =>
    ({ [field]: { sort: dir, nulls: "last" } }) as Prisma.RunOrderByWithRelationInput;
  const head: Prisma.RunOrderByWithRelationInput = (() => {
    switch (sort) {
      case "model":
        return { model: { name: dir } };
      case "benchmark":
        return { benchmark: dir };
      case "variant":
        return { variant: { name: dir } };
      case "size":
        return { model: { paramsB: { sort: dir, nulls: "last" } } };
      case "items":
        return { itemCount: dir };
      case "h50":
      case "h80":
      case "l50":
      case "p":
      case "firstAccuracy":
      case "lastAccuracy":
      case "scSlope":
        return num(sort);
      default:
        return { h50: { sort: dir, nulls: "last" } };
    }
  })();
  return [head, { key: "asc" }];
}

const ROW_SELECT = {
  id: true,
  key: true,
  benchmark: true,
  status: true,
  itemCount: true,
  generationCount: true,
  maxLength: true,
  source: true,
  hasSteps: true,
  selfConditioning: true,
  demo: true,
  h50: true,
  h50Lo: true,
  h50Hi: true,
  h50Censored: true,
  h80: true,
  l50: true,
  l50Lo: true,
  l50Hi: true,
  l80: true,
  p: true,
  firstAccuracy: true,
  lastAccuracy: true,
  scSlope: true,
  model: { select: { name: true, family: true, paramsB: true, thinking: true } },
  variant: { select: { name: true } },
  lengthStats: { select: { length: true, n: true, firstCorrect: true, modes: true }, orderBy: { length: "asc" } },
} satisfies Prisma.RunSelect;

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

  const rows: LeaderboardRow[] = runs.map((r) => {
    const failureModes = emptyModeCounts();
    for (const s of r.lengthStats) {
      const m = JSON.parse(s.modes) as Partial<Record<FailureMode, number>>;
      for (const f of FAILURE_MODES) failureModes[f] += m[f] ?? 0;
    }
    const byLength = new Map(r.lengthStats.map((s) => [s.length, s]));
    return {
      key: r.key,
      model: r.model.name,
      family: r.model.family,
      paramsB: r.model.paramsB,
      thinking: r.model.thinking,
      benchmark: r.benchmark,
      variant: r.variant.name,
      status: r.status,
      items: r.itemCount,
      generations: r.generationCount,
      maxLength: r.maxLength,
      hasSteps: r.hasSteps,
      selfConditioning: r.selfConditioning,
      demo: r.demo,
      h50: r.h50,
      h50Lo: r.h50Lo,
      h50Hi: r.h50Hi,
      h50Censored: r.h50Censored,
      h80: r.h80,
      l50: r.l50,
      l50Lo: r.l50Lo,
      l50Hi: r.l50Hi,
      l80: r.l80,
      l50Extrapolated: r.l50 !== null && r.l50 > r.maxLength,
      lengthUnit: lengthUnitOfJson(r.source),
      p: r.p,
      predictedHorizon: predictedHorizon(r.p),
      firstAccuracy: r.firstAccuracy,
      lastAccuracy: r.lastAccuracy,
      scSlope: r.scSlope,
      accuracyAt: at.map((length) => {
        const s = byLength.get(length);
        return { length, n: s?.n ?? 0, accuracy: s && s.n ? s.firstCorrect / s.n : null };
      }),
      failureModes,
      curve: r.lengthStats.filter((s) => s.n > 0).map((s) => ({ length: s.length, accuracy: s.firstCorrect / s.n })),
      rank: ranks.get(r.id) ?? null,
    };
  });

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
