import "server-only";
import { requireRunReader } from "../auth/server";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/sqlite/client";
import type { RunExtras, RunMetricsJson } from "@/lib/analysis/types";

// One run's header and stored metrics (computed at load time; nothing is recomputed here).

export interface RunSummary {
  id: number;
  key: string;
  model: { name: string; family: string | null; paramsB: number | null; thinking: boolean | null };
  benchmark: string;
  variant: string;
  /** variant parameters as loaded (dictionary left out) */
  variantParams: Record<string, unknown>;
  config: Record<string, unknown>;
  source: Record<string, unknown> | null;
  createdAt: string | null;
  loadedAt: string;
  status: string;
  items: number;
  generations: number;
  expectedItems: number | null;
  maxLength: number;
  hasSteps: boolean;
  selfConditioning: boolean;
  metrics: RunMetricsJson;
  extras: RunExtras;
}

function parseObject(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export async function getRunSummary(key: string): Promise<RunSummary | null> {
  await requireRunReader(key);
  const prisma = await db();
  const r = await prisma.run.findUnique({
    where: { key },
    include: { model: true, variant: { select: { name: true, params: true } } },
  });
  if (!r) return null;
  return {
    id: r.id,
    key: r.key,
    model: { name: r.model.name, family: r.model.family, paramsB: r.model.paramsB, thinking: r.model.thinking },
    benchmark: r.benchmark,
    variant: r.variant.name,
    variantParams: parseObject(r.variant.params) ?? {},
    config: parseObject(r.config) ?? {},
    source: parseObject(r.source),
    createdAt: r.createdAt,
    loadedAt: r.loadedAt.toISOString(),
    status: r.status,
    items: r.itemCount,
    generations: r.generationCount,
    expectedItems: r.expectedItems,
    maxLength: r.maxLength,
    hasSteps: r.hasSteps,
    selfConditioning: r.selfConditioning,
    metrics: JSON.parse(r.metrics) as RunMetricsJson,
    extras: JSON.parse(r.extras) as RunExtras,
  };
}

/** Cheap existence check for the run layout, which answers 404 before the page streams. */
export async function runExists(key: string): Promise<boolean> {
  await requireRunReader(key);
  const prisma = await db();
  // SQL: a Prisma count costs ~0.6 ms of CPU in its query compiler, on every run page
  const found = await prisma.$queryRaw<unknown[]>(Prisma.sql`SELECT 1 AS "found" FROM "Run" WHERE "key" = ${key} LIMIT 1`);
  return found.length > 0;
}
