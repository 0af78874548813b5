import "server-only";
import { emptyModeCounts } from "@/lib/analysis/failure-modes";
import { FAILURE_MODES, type FailureMode } from "@/lib/analysis/types";
import type { Prisma } from "@/lib/generated/sqlite/client";
import { visibleRunsWhere, type ReadContext } from "@/lib/read-context";
import type { LeaderboardParams, LeaderboardSortColumn } from "@/lib/url/leaderboard";
import type { LeaderboardRow } from "./leaderboard";
import { predictedHorizon, type HorizonRank } from "./leaderboard-rank";
import { RUN_FIELDS_SELECT, runFieldsOf } from "./run-fields";

// The leaderboard's store conditions (which runs, filtered and ordered how), the columns a row
// reads, and how a stored run becomes a row. lib/queries/leaderboard.ts runs the queries.

/**
 * Runs that belong on a leaderboard, among those the principal may see: not self-conditioning
 * sweeps (accuracy against an induced error rate, not against length: /self-conditioning ranks
 * those), and not demo runs once real runs exist, unless the URL asks for them.
 */
export async function boardWhere(ctx: ReadContext, p: LeaderboardParams): Promise<Prisma.RunWhereInput> {
  const visible = visibleRunsWhere(ctx);
  const hideDemo = !p.demo && (await ctx.store.prisma.run.count({ where: { ...visible, demo: false, selfConditioning: false } })) > 0;
  return { ...visible, selfConditioning: false, ...(hideDemo ? { demo: false } : {}) };
}

/** The URL's filters (access and the board's own conditions come from boardWhere). */
export function whereOf(p: LeaderboardParams): Prisma.RunWhereInput {
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

export function orderOf(sort: LeaderboardSortColumn, dir: "asc" | "desc"): Prisma.RunOrderByWithRelationInput[] {
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

export const ROW_SELECT = {
  ...RUN_FIELDS_SELECT,
  id: true,
  status: true,
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
  lengthStats: { select: { length: true, n: true, firstCorrect: true, modes: true }, orderBy: { length: "asc" } },
} satisfies Prisma.RunSelect;

/** A stored run (ROW_SELECT) as a leaderboard row, with "accuracy at" the lengths `at`. */
export function leaderboardRowOf(r: Prisma.RunGetPayload<{ select: typeof ROW_SELECT }>, at: number[], rank: HorizonRank): LeaderboardRow {
  const failureModes = emptyModeCounts();
  for (const s of r.lengthStats) {
    const m = JSON.parse(s.modes) as Partial<Record<FailureMode, number>>;
    for (const f of FAILURE_MODES) failureModes[f] += m[f] ?? 0;
  }
  const byLength = new Map(r.lengthStats.map((s) => [s.length, s]));
  return {
    ...runFieldsOf(r),
    status: r.status,
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
    rank,
  };
}
