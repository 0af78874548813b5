import "server-only";
import { visibleRunsWhere, type ReadContext } from "@/lib/read-context";
import type { Prisma } from "@/lib/generated/sqlite/client";
import { FAILURE_MODES, type FailureMode } from "@/lib/analysis/types";
import { effectiveSort, type LeaderboardParams, type LeaderboardSortColumn } from "@/lib/url/leaderboard";
import { emptyModeCounts, pickLengths, predictedHorizon, rankByHorizon, type HorizonRank } from "./leaderboard-rank";

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
}

export interface LeaderboardFilterOptions {
  benchmarks: string[];
  variants: { benchmark: string; name: string }[];
  families: string[];
  sizes: number[];
}

function whereOf(ctx: ReadContext, p: LeaderboardParams): Prisma.RunWhereInput {
  const model: Prisma.ModelWhereInput = {};
  if (p.family) model.family = p.family;
  if (p.thinking) model.thinking = p.thinking === "yes";
  if (p.minSize !== undefined || p.maxSize !== undefined) model.paramsB = { gte: p.minSize, lte: p.maxSize };
  return {
    ...visibleRunsWhere(ctx),
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
  hasSteps: true,
  selfConditioning: true,
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
  const where = whereOf(ctx, params);
  const { sort, dir } = effectiveSort(params);
  const pageSize = params.pageSize;

  // Every filtered run's horizon: cheap columns, needed for the leader and ties whatever the page.
  const all = await prisma.run.findMany({ where, select: { id: true, benchmark: true, h50: true, h50Lo: true, h50Hi: true } });
  const total = all.length;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(params.page, pageCount);
  const ranks = rankByHorizon(all);

  let at = params.at ?? [];
  if (!params.at) {
    const lengths = await prisma.runLengthStat.findMany({ where: { run: where }, select: { length: true } });
    at = pickLengths(lengths.map((l) => l.length));
  }

  let runs;
  if (sort.startsWith("at:")) {
    // Accuracy at a length is not a run column: order the filtered ids by it here, then page.
    const length = Number(sort.slice(3));
    const stats = await prisma.runLengthStat.findMany({
      where: { run: where, length },
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
      where,
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

  return { rows, total, page, pageSize, pageCount, at, sort, dir };
}

/** Every filter row only offers values that exist in the store. */
export async function getLeaderboardFilterOptions(ctx: ReadContext): Promise<LeaderboardFilterOptions> {
  const prisma = ctx.store.prisma;
  const visible = visibleRunsWhere(ctx);
  const [benchmarks, variants, models] = await Promise.all([
    prisma.run.findMany({ where: visible, select: { benchmark: true }, distinct: ["benchmark"], orderBy: { benchmark: "asc" } }),
    prisma.variant.findMany({
      where: { runs: { some: visible } },
      select: { name: true, benchmark: { select: { name: true } } },
      orderBy: { name: "asc" },
    }),
    prisma.model.findMany({ where: { runs: { some: visible } }, select: { family: true, paramsB: true } }),
  ]);
  return {
    benchmarks: benchmarks.map((b) => b.benchmark),
    variants: variants.map((v) => ({ benchmark: v.benchmark.name, name: v.name })),
    families: [...new Set(models.map((m) => m.family).filter((f): f is string => !!f))].sort(),
    sizes: [...new Set(models.map((m) => m.paramsB).filter((s): s is number => s !== null))].sort((a, b) => a - b),
  };
}
