import type { RunMetricsJson } from "../analysis/types";
import type { RunAccess } from "../auth/run-access";
import { visibleRunsWhere, type ReadContext } from "../read-context";

// Reads shared by the CLI and the JSON API (SPEC §6). Pages use lib/queries.

export interface RunListEntry {
  key: string;
  model: string;
  benchmark: string;
  variant: string;
  items: number;
  generations: number;
  created_at: string | null;
}

/** The runs `ctx`'s principal may see. */
export async function listRuns(ctx: ReadContext): Promise<RunListEntry[]> {
  const runs = await ctx.store.prisma.run.findMany({
    where: visibleRunsWhere(ctx),
    orderBy: { key: "asc" },
    select: {
      key: true,
      benchmark: true,
      itemCount: true,
      generationCount: true,
      createdAt: true,
      model: { select: { name: true } },
      variant: { select: { name: true } },
    },
  });
  return runs.map((r) => ({
    key: r.key,
    model: r.model.name,
    benchmark: r.benchmark,
    variant: r.variant.name,
    items: r.itemCount,
    generations: r.generationCount,
    created_at: r.createdAt,
  }));
}

/** The stored §6 JSON of a run, or null when it was deleted since its access check. By key, not
 *  id: a run loaded again in the meantime (a new id) answers with its new metrics. */
export async function getRunMetrics(ctx: ReadContext, access: RunAccess): Promise<RunMetricsJson | null> {
  const run = await ctx.store.prisma.run.findUnique({ where: { key: access.key }, select: { metrics: true } });
  return run ? (JSON.parse(run.metrics) as RunMetricsJson) : null;
}
