import { SummaryColumns } from "../analysis/summary-columns";
import type { GenerationSummary, RunHeader } from "../analysis/types";
import { deleteRowsInSlices } from "./delete-run";
import { contentsOfRun } from "./item-content";
import type { RawTx } from "./raw";
import { runAggregates, type RunAggregates } from "./run-aggregates";
import { insertStudyRows } from "./study-aggregates";

// A run's own rows, shared by the batch writer (RunWriter) and the incremental one
// (lib/store/incremental.ts): its model, benchmark and variant, the Run row a load starts
// with, its generations' order, and its metrics with the stored aggregates.

/**
 * Numbers a run's generations in item order: for a file that did not list them in that order
 * (an item's later epoch after another item) and for a run written one at a time, once it
 * completes. One pass, paid only by those.
 */
export async function renumber(tx: RawTx, runId: number): Promise<void> {
  await tx.exec(
    `UPDATE "Generation" SET "ordinal" = o."n"
     FROM (SELECT "id", ROW_NUMBER() OVER (ORDER BY "itemId", "epoch") AS "n" FROM "Generation" WHERE "runId" = $1) o
     WHERE "Generation"."id" = o."id"`,
    [runId],
  );
}

/** The Run columns a run's header fills (a loaded run's and one written incrementally alike), in runHeaderValues' order. */
export const RUN_HEADER_COLUMNS = `"key", "modelId", "variantId", "benchmark", "config", "source", "variantJson", "createdAt"`;

/** The values of RUN_HEADER_COLUMNS for a run. */
export function runHeaderValues(header: RunHeader, { modelId, variantId }: { modelId: number; variantId: number }): unknown[] {
  return [
    header.key,
    modelId,
    variantId,
    header.benchmark,
    JSON.stringify(header.config ?? {}),
    JSON.stringify(header.source ?? null),
    JSON.stringify(header.variant),
    header.created_at,
  ];
}

/**
 * The Run row a load starts with (`demo`: a run of `stepwise demo`, which the leaderboard
 * hides once real runs exist); its counts and metrics are written as the load ends. Returns its id.
 */
export async function insertLoadedRun(
  tx: RawTx,
  header: RunHeader,
  refs: { modelId: number; variantId: number },
  demo: boolean,
): Promise<number> {
  const runId = await tx.reserveIds("Run", 1);
  await tx.exec(
    `INSERT INTO "Run" ("id", ${RUN_HEADER_COLUMNS},
      "status", "itemCount", "generationCount", "maxLength", "hasSteps", "metrics", "extras", "loadedAt", "searchIndexed", "demo")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'complete', 0, 0, 0, false, '{}', '{}', $10, $11, $12)`,
    [
      runId,
      ...runHeaderValues(header, refs),
      new Date().toISOString(), // ISO text: what Prisma itself writes to a SQLite DateTime column
      // flagged indexed for search as the load commits (lib/store/search-index.ts)
      false,
      demo,
    ],
  );
  return runId;
}

/** Model, benchmark and variant rows of a run header (created or updated). */
export async function ensureRunRefs(tx: RawTx, header: RunHeader): Promise<{ modelId: number; variantId: number }> {
  const m = header.model;
  const [model] = await tx.query<{ id: number }>(
    `INSERT INTO "Model" ("name", "family", "paramsB", "thinking") VALUES ($1, $2, $3, $4)
     ON CONFLICT ("name") DO UPDATE SET "family" = excluded."family", "paramsB" = excluded."paramsB", "thinking" = excluded."thinking"
     RETURNING "id"`,
    [m.name, m.family ?? null, m.params_b ?? null, m.thinking ?? null],
  );
  const [bench] = await tx.query<{ id: number }>(
    `INSERT INTO "Benchmark" ("name") VALUES ($1) ON CONFLICT ("name") DO UPDATE SET "name" = excluded."name" RETURNING "id"`,
    [header.benchmark],
  );
  // the dictionary lives on the run (Run.variantJson), not on the variant shared by runs
  const params: Record<string, unknown> = { ...header.variant };
  delete params.dictionary;
  const [variant] = await tx.query<{ id: number }>(
    `INSERT INTO "Variant" ("benchmarkId", "name", "params") VALUES ($1, $2, $3)
     ON CONFLICT ("benchmarkId", "name") DO UPDATE SET "params" = excluded."params" RETURNING "id"`,
    [bench.id, header.variant.name, JSON.stringify(params)],
  );
  return { modelId: model.id, variantId: variant.id };
}

/**
 * Replaces any run with the header's key by a new Run row (the enclosing transaction makes it
 * atomic); `slices`: the old run's rows deleted in slices, the server's event loop turning
 * between them. `demo` marks a run of `stepwise demo`, which the leaderboard hides once real runs exist.
 */
export async function replaceRun(tx: RawTx, header: RunHeader, demo: boolean, slices: boolean) {
  const refs = await ensureRunRefs(tx, header);
  const [old] = await tx.query<{ id: number }>(`SELECT "id" FROM "Run" WHERE "key" = $1`, [header.key]);
  // the content ids the old run's items used, read before they go (or as they go, in slices)
  const replacedContents = !old ? [] : slices ? await deleteRowsInSlices(tx, Number(old.id)) : await contentsOfRun(tx, Number(old.id));
  const replaced = (await tx.exec(`DELETE FROM "Run" WHERE "key" = $1`, [header.key])) > 0;
  return { runId: await insertLoadedRun(tx, header, refs, demo), replaced, replacedContents };
}

/**
 * Computes a run's metrics from its summaries and stores them with the aggregates, replacing
 * earlier ones (a run being written incrementally refreshes them many times); `summaries` may
 * instead give the aggregates computed elsewhere (or throw what failed there). `meanwhile`:
 * statements already sent on this transaction, which the server runs while this thread
 * computes (PostgreSQL); awaited before the writes.
 */
export async function writeRunMetrics(
  tx: RawTx,
  runId: number,
  header: RunHeader,
  summaries: SummaryColumns | readonly GenerationSummary[] | (() => RunAggregates),
  meanwhile: Promise<unknown> = Promise.resolve(),
) {
  let computed: RunAggregates;
  try {
    computed =
      typeof summaries === "function"
        ? summaries()
        : runAggregates(header, summaries instanceof SummaryColumns ? summaries : SummaryColumns.from(summaries));
  } catch (e) {
    await meanwhile.catch(() => undefined); // the statements end before the error goes up (and the rollback)
    throw e;
  }
  await meanwhile;
  const { metrics, extras, unknown, lengthRows, stepRows, study } = computed;
  for (const rows of [lengthRows, stepRows, study]) for (const row of rows) row[0] = runId;
  await tx.exec(`DELETE FROM "RunLengthStat" WHERE "runId" = $1`, [runId]);
  await tx.exec(`DELETE FROM "RunStepStat" WHERE "runId" = $1`, [runId]);
  await tx.insertRows("RunLengthStat", ["runId", "length", "n", "firstCorrect", "lastCorrect", "modes"], lengthRows);
  await tx.insertRows("RunStepStat", ["runId", "step", "n", "taskCorrect", "stepCorrect", "firstDivergences"], stepRows);
  await insertStudyRows(tx, runId, study);
  const h = metrics.horizon;
  const overall = (pick: "first_correct" | "last_correct") => {
    if (unknown) return null;
    const n = metrics.accuracy_by_length.reduce((t, r) => t + r.n, 0);
    return n ? metrics.accuracy_by_length.reduce((t, r) => t + r[pick], 0) / n : null;
  };
  await tx.exec(
    `UPDATE "Run" SET "itemCount" = $1, "generationCount" = $2, "maxLength" = $3, "hasSteps" = $4, "selfConditioning" = $5,
      "h50" = $6, "h50Lo" = $7, "h50Hi" = $8, "h50Censored" = $9, "h80" = $10, "l50" = $11, "l50Lo" = $12, "l50Hi" = $13,
      "l80" = $14, "p" = $15, "firstAccuracy" = $16, "lastAccuracy" = $17, "scSlope" = $18, "metrics" = $19, "extras" = $20
     WHERE "id" = $21`,
    [
      metrics.items,
      metrics.generations,
      extras.max_length,
      metrics.task_accuracy !== null,
      metrics.self_conditioning !== null,
      h?.steps ?? null,
      h?.ci[0] ?? null,
      h?.ci[1] ?? null,
      h?.censored ?? null,
      metrics.horizon_80?.steps ?? null,
      metrics.length_fit?.l50 ?? null,
      metrics.length_fit?.l50_ci[0] ?? null,
      metrics.length_fit?.l50_ci[1] ?? null,
      metrics.length_fit?.l80 ?? null,
      metrics.reliability?.p ?? null,
      overall("first_correct"),
      overall("last_correct"),
      metrics.self_conditioning?.slope ?? null,
      JSON.stringify(metrics),
      JSON.stringify(extras),
      runId,
    ],
  );
  return metrics;
}
