// The incremental write path of `stepwise run`: results go into the store one generation at a
// time, each in its own short transaction, so a dashboard reading the store sees them arrive
// and a killed process loses at most the requests in flight. Idempotent by (item, epoch):
// a resumed run skips what is stored and a generation is never stored twice, even when two
// writers race (ON CONFLICT DO NOTHING on the unique keys).
import { summaryOf } from "../analysis/analyse";
import { SummaryColumns } from "../analysis/summary-columns";
import type { GenerationAnalysis, GenerationSummary, NativeItem, RunHeader, StoredGenerationAnalysis } from "../analysis/types";
import type { RawStore } from "../db";
import { parseJsonOr } from "../json";
import { holdRun } from "./delete-run";
import { decodeItemContent, dropUnusedContents, storeContents } from "./item-content";
import type { RawTx } from "./raw";
import { GEN_COLS, compressRowOutput, generationRow, itemContentOf } from "./rows";
import { indexGeneration } from "./search-index";
import { storesStepTrace } from "./derived-trace";
import { stepTraceOf } from "./step-trace";
import { ensureRunRefs, renumber, RUN_HEADER_COLUMNS, runHeaderValues, writeRunMetrics } from "./run-record";
import { writeSignposts } from "./signposts";

export interface IncrementalRun {
  runId: number;
  header: RunHeader;
  /** "item\u0000epoch" of every generation already stored (resume skips them) */
  stored: Set<string>;
  /** true when the run existed and is being resumed */
  resumed: boolean;
}

export const genKey = (itemKey: string, epoch: number) => `${itemKey}\u0000${epoch}`;

/** Settings that must agree between the stored run and a resume: otherwise results would mix. */
const PINNED = ["prompt_version", "temperature", "max_tokens", "epochs"] as const;

export class RunConflictError extends Error {}

/** Creates the run (status "running") or resumes the stored one with the same key. */
export async function openIncrementalRun(store: RawStore, header: RunHeader, expectedItems: number): Promise<IncrementalRun> {
  return store.raw.transaction(async (tx) => {
    const [existing] = await tx.query<{ id: number; benchmark: string; config: string; model: string; variant: string }>(
      `SELECT r."id", r."benchmark", r."config", m."name" AS "model", v."name" AS "variant"
       FROM "Run" r JOIN "Model" m ON m."id" = r."modelId" JOIN "Variant" v ON v."id" = r."variantId" WHERE r."key" = $1`,
      [header.key],
    );
    const now = new Date().toISOString();
    if (existing) {
      checkCompatible(header, existing);
      await tx.exec(`UPDATE "Run" SET "status" = 'running', "expectedItems" = $1, "loadedAt" = $2 WHERE "id" = $3`, [
        expectedItems,
        now,
        existing.id,
      ]);
      // new generations may land between numbered ones: numbered again when the run completes
      await tx.exec(`UPDATE "Generation" SET "ordinal" = NULL WHERE "runId" = $1`, [existing.id]);
      const rows = await tx.query<{ itemKey: string; epoch: number }>(`SELECT "itemKey", "epoch" FROM "Generation" WHERE "runId" = $1`, [
        existing.id,
      ]);
      return { runId: existing.id, header, stored: new Set(rows.map((r) => genKey(r.itemKey, Number(r.epoch)))), resumed: true };
    }
    const refs = await ensureRunRefs(tx, header);
    const [run] = await tx.query<{ id: number }>(
      `INSERT INTO "Run" (${RUN_HEADER_COLUMNS},
        "status", "itemCount", "generationCount", "expectedItems", "maxLength", "hasSteps", "metrics", "extras", "loadedAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'running', 0, 0, $9, 0, false, '{}', '{}', $10) RETURNING "id"`,
      [...runHeaderValues(header, refs), expectedItems, now],
    );
    return { runId: Number(run.id), header, stored: new Set<string>(), resumed: false };
  });
}

function checkCompatible(header: RunHeader, existing: { benchmark: string; config: string; model: string; variant: string }) {
  const problems: string[] = [];
  if (existing.model !== header.model.name) problems.push(`model ${JSON.stringify(existing.model)}`);
  if (existing.benchmark !== header.benchmark) problems.push(`benchmark ${existing.benchmark}`);
  if (existing.variant !== header.variant.name) problems.push(`variant ${JSON.stringify(existing.variant)}`);
  let config: Record<string, unknown> = {};
  try {
    config = JSON.parse(existing.config) as Record<string, unknown>;
  } catch {
    /* an unreadable config pins nothing */
  }
  for (const k of PINNED) {
    if (JSON.stringify(config[k] ?? null) !== JSON.stringify(header.config[k] ?? null))
      problems.push(`${k} ${JSON.stringify(config[k] ?? null)}`);
  }
  if (problems.length) {
    throw new RunConflictError(
      `run key ${JSON.stringify(header.key)} already holds a run with ${problems.join(", ")}; resuming needs the same settings (or choose another --run-key)`,
    );
  }
}

/** Stores one generation (and its item on first sight). Returns false when (item, epoch) was already stored. */
export async function addGeneration(store: RawStore, run: IncrementalRun, item: NativeItem, a: GenerationAnalysis): Promise<boolean> {
  const added = await store.raw.transaction(async (tx) => {
    await holdRun(tx, run.runId);
    const itemId = await itemIdFor(tx, run, item, a);
    const full = generationRow(null, run.runId, itemId, item, a, storesStepTrace(run.header.benchmark) ? stepTraceOf(a) : null);
    const text = compressRowOutput(tx.provider, full);
    const row = full.slice(1);
    const cols = GEN_COLS.slice(1);
    const [gen] = await tx.query<{ id: number }>(
      `INSERT INTO "Generation" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(", ")})
       ON CONFLICT ("itemId", "epoch") DO NOTHING RETURNING "id"`,
      row,
    );
    if (gen !== undefined) await indexGeneration(tx, run.runId, Number(gen.id), text);
    return gen !== undefined;
  });
  run.stored.add(genKey(item.id, item.epoch));
  return added;
}

async function itemIdFor(tx: RawTx, run: IncrementalRun, item: NativeItem, a: GenerationAnalysis): Promise<number> {
  const runId = run.runId;
  const existing = async () =>
    (await tx.query<{ id: number }>(`SELECT "id" FROM "Item" WHERE "runId" = $1 AND "key" = $2`, [runId, item.id]))[0];
  const old = await existing();
  if (old) return Number(old.id);
  const rate = a.selfConditioning?.inducedErrorRate ?? null;
  const [contentId] = await storeContents(tx, [itemContentOf(run.header.benchmark, item, a)]);
  const [ins] = await tx.query<{ id: number }>(
    `INSERT INTO "Item" ("runId", "key", "length", "contentId", "inducedErrorRate") VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT ("runId", "key") DO NOTHING RETURNING "id"`,
    [runId, item.id, a.length, contentId, rate],
  );
  if (ins) return Number(ins.id);
  // another writer stored the item first: its record is the one kept
  await dropUnusedContents(tx, [contentId]);
  return Number((await existing()).id);
}

/**
 * Recomputes the run's metrics and aggregates from its stored generations (so a resumed run
 * counts what earlier processes stored). With `completeAt`, the run is marked "complete" once
 * that many generations are stored; otherwise, and until then, it stays "running".
 */
export async function refreshRun(
  store: RawStore,
  run: IncrementalRun,
  completeAt: number | null,
): Promise<{ items: number; generations: number; status: "running" | "complete" }> {
  return store.raw.transaction(async (tx) => {
    const summaries = await storedSummaries(tx, run.runId);
    const metrics = await writeRunMetrics(tx, run.runId, run.header, summaries);
    const status = completeAt !== null && metrics.generations >= completeAt ? "complete" : "running";
    if (status === "complete") {
      await renumber(tx, run.runId);
      await writeSignposts(tx, run.runId);
    }
    await tx.exec(`UPDATE "Run" SET "status" = $1, "loadedAt" = $2 WHERE "id" = $3`, [status, new Date().toISOString(), run.runId]);
    return { items: metrics.items, generations: metrics.generations, status };
  });
}

interface StoredRow {
  itemKey: string;
  epoch: number;
  length: number;
  firstCorrect: unknown;
  lastCorrect: unknown;
  firstDivergence: number | null;
  statuses: string;
  modes: number;
  clean: unknown;
  analysis: string;
  promptTokens: number | null;
  completionTokens: number | null;
  latencyMs: number | null;
  costUsd: number | null;
  metadata: string | null;
  contentId: number;
  body: Uint8Array;
}

/** The run's summaries rebuilt from Generation rows, in (item, epoch) order. */
export async function storedSummaries(tx: RawTx, runId: number): Promise<SummaryColumns> {
  const rows = await tx.query<StoredRow>(
    `SELECT g."itemKey", g."epoch", g."length", g."firstCorrect", g."lastCorrect", g."firstDivergence", g."statuses", g."modes",
       g."clean", g."analysis", g."promptTokens", g."completionTokens", g."latencyMs", g."costUsd", g."metadata",
       i."contentId", c."body"
     FROM "Generation" g JOIN "Item" i ON i."id" = g."itemId" JOIN "ItemContent" c ON c."id" = i."contentId"
     WHERE g."runId" = $1 ORDER BY g."itemId", g."epoch"`,
    [runId],
  );
  const out = new SummaryColumns(rows.length);
  // an item's epochs are adjacent: decode its record once
  let contentId = -1;
  let input: NativeItem["input"] = {};
  for (const r of rows) {
    if (Number(r.contentId) !== contentId) {
      contentId = Number(r.contentId);
      input = decodeItemContent(r.body).input;
    }
    out.push(summaryOfRow(r, input));
  }
  return out;
}

function summaryOfRow(r: StoredRow, input: NativeItem["input"]): GenerationSummary {
  const stored = parseJsonOr<Partial<StoredGenerationAnalysis> | null>(r.analysis, null) ?? {};
  // The loader's own mapping of the item's fields (cluster, usage), so both paths summarise a
  // generation identically.
  const summary = summaryOf(
    {
      id: r.itemKey,
      epoch: Number(r.epoch),
      input,
      metadata: parseJsonOr<unknown>(r.metadata, undefined),
      usage: { prompt_tokens: r.promptTokens ?? undefined, completion_tokens: r.completionTokens ?? undefined },
      latency_ms: r.latencyMs,
      cost_usd: r.costUsd,
    },
    {
      length: Number(r.length),
      firstCorrect: Boolean(r.firstCorrect),
      lastCorrect: Boolean(r.lastCorrect),
      firstDivergence: r.firstDivergence === null ? null : Number(r.firstDivergence),
      statuses: r.statuses,
      modes: Number(r.modes),
      selfConditioning: stored.selfConditioning ?? null,
      clean: Boolean(r.clean),
      exactStep: Boolean(stored.exactStep),
    },
  );
  return {
    ...summary,
    promptTokens: r.promptTokens === null ? null : Number(r.promptTokens),
    completionTokens: r.completionTokens === null ? null : Number(r.completionTokens),
    latencyMs: r.latencyMs === null ? null : Number(r.latencyMs),
    costUsd: r.costUsd === null ? null : Number(r.costUsd),
  };
}
