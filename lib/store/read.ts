import type { RunMetricsJson } from "../analysis/types";
import type { Db } from "../db";

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

export async function listRuns(prisma: Db): Promise<RunListEntry[]> {
  const runs = await prisma.run.findMany({
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

/** The stored §6 JSON of a run, or null when no run has this key. */
export async function getRunMetrics(prisma: Db, key: string): Promise<RunMetricsJson | null> {
  const run = await prisma.run.findUnique({ where: { key }, select: { metrics: true } });
  return run ? (JSON.parse(run.metrics) as RunMetricsJson) : null;
}
