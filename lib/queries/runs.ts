import "server-only";
import { cache } from "react";
import { RUN_FROM } from "./run-fields";
import { numberOrNull, textOrNull } from "./sql-values";
import type { RunAccess } from "@/lib/auth/run-access";
import type { ReadContext } from "@/lib/read-context";
import { sql } from "@/lib/store/sql";
import type { RunExtras, RunMetricsJson } from "@/lib/analysis/types";

// One run's header and stored metrics (computed at load time; nothing is recomputed here).

export interface RunSummary {
  id: number;
  key: string;
  model: { id: number; name: string; family: string | null; paramsB: number | null; thinking: boolean | null };
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

/**
 * Null when the run was deleted since its access check (by key: a run loaded again is read anew).
 * Cached per request (React's cache): the page and its metadata read the same summary.
 */
export const getRunSummary = cache(readRunSummary);

async function readRunSummary(ctx: ReadContext, run: RunAccess): Promise<RunSummary | null> {
  // One SQL join rather than findUnique with two relations: Prisma's query compiler costs CPU
  // per operation on every run and generation page (docs/decisions.md, figures).
  const [r] = await ctx.store.read(
    sql`
    SELECT r."id", r."key", r."benchmark", r."config", r."source", r."createdAt", r."loadedAt", r."status", r."itemCount",
      r."generationCount", r."expectedItems", r."maxLength", r."hasSteps", r."selfConditioning", r."metrics", r."extras",
      m."id" AS "modelId", m."name" AS "modelName", m."family" AS "modelFamily", m."paramsB" AS "modelParamsB", m."thinking" AS "modelThinking",
      v."name" AS "variantName", v."params" AS "variantParams"
    FROM ${RUN_FROM}
    WHERE r."key" = ${run.key}`,
    { planOnce: true },
  );
  if (!r) return null;
  return {
    id: Number(r.id),
    key: String(r.key),
    model: {
      id: Number(r.modelId),
      name: String(r.modelName),
      family: textOrNull(r.modelFamily),
      paramsB: numberOrNull(r.modelParamsB),
      thinking: r.modelThinking === null ? null : Boolean(r.modelThinking),
    },
    benchmark: String(r.benchmark),
    variant: String(r.variantName),
    variantParams: parseObject(textOrNull(r.variantParams)) ?? {},
    config: parseObject(textOrNull(r.config)) ?? {},
    source: parseObject(textOrNull(r.source)),
    createdAt: textOrNull(r.createdAt),
    // ISO text or epoch ms on SQLite (as Prisma writes it), a timestamp on PostgreSQL
    loadedAt: new Date(r.loadedAt as string | number | Date).toISOString(),
    status: String(r.status),
    items: Number(r.itemCount),
    generations: Number(r.generationCount),
    expectedItems: numberOrNull(r.expectedItems),
    maxLength: Number(r.maxLength),
    hasSteps: Boolean(r.hasSteps),
    selfConditioning: Boolean(r.selfConditioning),
    metrics: JSON.parse(String(r.metrics)) as RunMetricsJson,
    extras: JSON.parse(String(r.extras)) as RunExtras,
  };
}
