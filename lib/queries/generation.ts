import "server-only";
import { cache } from "react";
import type { RunAccess } from "@/lib/auth/run-access";
import type { Store } from "@/lib/db";
import { raw, sql, type Sql } from "@/lib/store/sql";
import { RUN_FROM } from "./run-fields";
import { numberOrNull, textOrNull } from "./sql-values";
import type { ReadContext } from "@/lib/read-context";
import type { FailureMode, StepRow, StepStatus, StoredGenerationAnalysis } from "@/lib/analysis/types";
import { decodeItemContent } from "@/lib/store/item-content";
import { storedOutput } from "@/lib/store/output-text";
import { derivedStepTrace, storesStepTrace } from "@/lib/store/derived-trace";
import { decodeStepTrace, type StoredStep } from "@/lib/store/step-trace";
import { decodeModes } from "@/lib/analysis/failure-modes";
import { parseJsonOr } from "@/lib/json";
import { ownOperands, stepOperations, type StepOperation } from "./step-operations";

// Everything the trace-diff page shows for one generation. Model output is returned as
// plain strings: the page renders it as text only.

export interface GenerationStep {
  step: number;
  status: StepStatus;
  expected: string;
  claimed: string | null;
  recomputed: string | null;
  span: [number, number] | null;
  /** dict-sum: the turn holding this step (multi-turn: the turn text `span` points into) */
  turn: number | null;
  /** what the step computes (arith: "S4 − S2"; dict-sum: "+ alarm (88)") */
  operation: StepOperation | null;
  /** the model's own operand values, for slips and propagated steps */
  operands: NonNullable<StepRow["operands"]> | null;
}

export interface GenerationRef {
  itemId: string;
  epoch: number;
}

export interface GenerationDetail {
  run: { key: string; model: string; benchmark: string; variant: string; hasSteps: boolean; selfConditioning: boolean };
  item: { id: string; length: number; input: Record<string, unknown>; inducedErrorRate: number | null };
  epoch: number;
  epochs: number[];
  /** the raw output: one text, or one text per turn (dict-sum multi-turn) */
  output: { kind: "text"; text: string } | { kind: "turns"; turns: string[] };
  firstAnswer: string | null;
  lastAnswer: string | null;
  firstCorrect: boolean;
  lastCorrect: boolean;
  firstDivergence: number | null;
  divergenceKind: string | null;
  modes: FailureMode[];
  clean: boolean;
  usage: { promptTokens: number | null; completionTokens: number | null; latencyMs: number | null; costUsd: number | null };
  analysis: StoredGenerationAnalysis;
  steps: GenerationStep[];
  /** why the steps cannot be shown (a damaged record, or a recomputation that disagrees with the load); steps are then [] */
  stepsError: string | null;
  /** 1-based position of this generation in the run's item order, and the run's count */
  position: { index: number; total: number };
  prevFailed: GenerationRef | null;
  nextFailed: GenerationRef | null;
}

/** Multi-turn dict-sum outputs are stored as a JSON array of turn texts. */
function outputOf(raw: string, benchmark: string, a: StoredGenerationAnalysis): GenerationDetail["output"] {
  if (benchmark === "dict-sum" && !a.selfConditioning && !a.answers.some((x) => x.kind === "list") && raw.startsWith("[")) {
    const v = parseJsonOr<unknown>(raw, null);
    if (Array.isArray(v) && v.every((t) => typeof t === "string")) return { kind: "turns", turns: v as string[] };
  }
  return { kind: "text", text: raw };
}

/** Turn of each step, from the turn rows (K keys per turn). */
function turnOfStep(a: StoredGenerationAnalysis): Map<number, number> {
  const out = new Map<number, number>();
  let step = 0;
  for (const t of a.turns ?? []) for (let i = 0; i < t.keys.length; i++) out.set(++step, t.turn);
  return out;
}

/**
 * 1-based place of a generation the loader did not number (a run written one generation at
 * a time): a count of the generations before it, which grows with the run.
 */
async function positionByCount(store: Store, runId: number, itemId: number, epoch: number): Promise<number> {
  const [r] = await store.read<{ before: unknown; here: unknown }>(sql`
    SELECT (SELECT COUNT(*) FROM "Generation" WHERE "runId" = ${runId} AND "itemId" < ${itemId}) AS "before",
      (SELECT COUNT(*) FROM "Generation" WHERE "runId" = ${runId} AND "itemId" = ${itemId} AND "epoch" < ${epoch}) AS "here"`);
  return Number(r.before) + Number(r.here) + 1;
}

/**
 * The failed generations next to (itemId, epoch) in item order, before and after it: four
 * index seeks on (runId, firstCorrect, itemId, epoch) in one statement — each way one within
 * this item's epochs and one among the other items (an OR of the two would not use the index).
 * One statement, not four: on PostgreSQL each is a round trip (docs/performance.md, "Pages and API").
 */
async function failedNeighbours(
  store: Store,
  runId: number,
  itemId: number,
  epoch: number,
): Promise<{ prev: GenerationRef | null; next: GenerationRef | null }> {
  const seek = (part: number, within: Sql, dir: Sql) => sql`
    SELECT ${raw(String(part))} AS "part", "itemKey", "epoch" FROM (
      SELECT "itemKey", "epoch" FROM "Generation" WHERE "runId" = ${runId} AND "firstCorrect" = false AND ${within}
      ORDER BY "itemId" ${dir}, "epoch" ${dir} LIMIT 1) s${raw(String(part))}`;
  const [desc, asc] = [raw("DESC"), raw("ASC")];
  const rows = await store.read<{ part: unknown; itemKey: unknown; epoch: unknown }>(
    sql`${seek(0, sql`"itemId" = ${itemId} AND "epoch" < ${epoch}`, desc)}
      UNION ALL ${seek(1, sql`"itemId" < ${itemId}`, desc)}
      UNION ALL ${seek(2, sql`"itemId" = ${itemId} AND "epoch" > ${epoch}`, asc)}
      UNION ALL ${seek(3, sql`"itemId" > ${itemId}`, asc)}`,
    { planOnce: true },
  );
  const found = new Map(rows.map((r) => [Number(r.part), { itemId: String(r.itemKey), epoch: Number(r.epoch) }]));
  return { prev: found.get(0) ?? found.get(1) ?? null, next: found.get(2) ?? found.get(3) ?? null };
}

/** Cached per request (React's cache): the page and its metadata read the same generation. */
export const getGeneration = cache(readGeneration);

async function readGeneration(ctx: ReadContext, access: RunAccess, itemKey: string, epoch: number): Promise<GenerationDetail | null> {
  const store = ctx.store;
  // Driver reads, not Prisma's: each Prisma query costs ~1 ms of compiling (lib/store/reader.ts).
  const [row] = await store.read(
    sql`
    SELECT r."id" AS "runId", r."benchmark", r."config", r."variantJson", r."hasSteps", r."selfConditioning", r."generationCount",
      m."name" AS "model", v."name" AS "variant",
      i."id" AS "itemId", i."length", i."inducedErrorRate", c."body" AS "content",
      g."id" AS "generationId", g."output", g."outputDeflated", g."firstAnswer", g."lastAnswer", g."firstCorrect", g."lastCorrect",
      g."firstDivergence", g."divergenceKind", g."modes", g."clean", g."analysis", g."promptTokens", g."completionTokens",
      g."latencyMs", g."costUsd", g."ordinal", g."statuses", g."stepTrace"
    FROM ${RUN_FROM}
      JOIN "Item" i ON i."runId" = r."id" AND i."key" = ${itemKey}
      JOIN "ItemContent" c ON c."id" = i."contentId"
      LEFT JOIN "Generation" g ON g."itemId" = i."id" AND g."epoch" = ${epoch}
    WHERE r."key" = ${access.key}`,
    { planOnce: true },
  );
  if (!row || row.generationId === null) return null;
  const runId = Number(row.runId);
  const itemId = Number(row.itemId);
  const length = Number(row.length);
  const benchmark = String(row.benchmark);
  const [epochs, index, { prev, next }] = await Promise.all([
    store.read<{ epoch: unknown }>(sql`SELECT "epoch" FROM "Generation" WHERE "itemId" = ${itemId} ORDER BY "epoch"`, { planOnce: true }),
    row.ordinal === null ? positionByCount(store, runId, itemId, epoch) : Number(row.ordinal),
    failedNeighbours(store, runId, itemId, epoch),
  ]);
  const analysis = parseJsonOr<StoredGenerationAnalysis>(String(row.analysis), {
    answers: [],
    extras: [],
    revised: [],
    turns: null,
    exactStep: false,
    hasSteps: false,
    selfConditioning: null,
  });
  const { input } = decodeItemContent(row.content as Uint8Array);
  const stored = storedOutput(String(row.output), row.outputDeflated as Uint8Array | null);
  const output = outputOf(stored, benchmark, analysis);
  const turns = analysis.turns ? turnOfStep(analysis) : null;
  // The rest of the page stands without the steps: a trace that cannot be read says why instead.
  let trace: StoredStep[] = [];
  let stepsError: string | null = null;
  try {
    trace =
      row.stepTrace === null && analysis.hasSteps && !storesStepTrace(benchmark)
        ? derivedStepTrace(
            { benchmark, config: String(row.config), variantJson: String(row.variantJson) },
            { id: itemKey, length, epoch, input },
            stored,
            String(row.statuses),
          )
        : decodeStepTrace(row.stepTrace as Uint8Array | null);
  } catch (e) {
    stepsError = e instanceof Error ? e.message : String(e);
  }
  const ops = stepOperations(benchmark, input, analysis, length);

  return {
    run: {
      key: access.key,
      model: String(row.model),
      benchmark,
      variant: String(row.variant),
      hasSteps: Boolean(row.hasSteps),
      selfConditioning: Boolean(row.selfConditioning),
    },
    item: { id: itemKey, length, input, inducedErrorRate: numberOrNull(row.inducedErrorRate) },
    epoch,
    epochs: epochs.map((e) => Number(e.epoch)),
    output,
    firstAnswer: textOrNull(row.firstAnswer),
    lastAnswer: textOrNull(row.lastAnswer),
    firstCorrect: Boolean(row.firstCorrect),
    lastCorrect: Boolean(row.lastCorrect),
    firstDivergence: numberOrNull(row.firstDivergence),
    divergenceKind: textOrNull(row.divergenceKind),
    modes: decodeModes(Number(row.modes)),
    clean: Boolean(row.clean),
    usage: {
      promptTokens: numberOrNull(row.promptTokens),
      completionTokens: numberOrNull(row.completionTokens),
      latencyMs: numberOrNull(row.latencyMs),
      costUsd: numberOrNull(row.costUsd),
    },
    analysis,
    steps: trace.map((s) => ({
      ...s,
      turn: turns?.get(s.step) ?? null,
      operation: ops.get(s.step) ?? null,
      operands: s.status === "correct" ? null : ownOperands(ops.get(s.step), trace),
    })),
    stepsError,
    position: { index, total: Number(row.generationCount) },
    prevFailed: prev,
    nextFailed: next,
  };
}
