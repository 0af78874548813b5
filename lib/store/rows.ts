import { statusLetters, summarise } from "../analysis/analyse";
import { encodeModes } from "../analysis/failure-modes";
import type { Provider } from "../env";
import type { GenerationEvent } from "../native/reader";
import { itemContentText, keepsReference, sealItemContent, type ItemContent } from "./item-content";
import type { DoneAhead } from "./done-ahead";
import { compressesOutputs, compressOutput } from "./output-text";
import { storesStepTrace } from "./derived-trace";
import { stepTraceText } from "./step-trace";
import {
  type GenerationAnalysis,
  type GenerationSummary,
  type NativeItem,
  type RunHeader,
  type StoredGenerationAnalysis,
} from "../analysis/types";

// Rows of one analysed generation, built without ids so that the work can happen on the
// analysis thread (lib/store/analysis-thread.ts) while the loader's thread inserts: the
// writer fills in run, item and generation ids.

/** Generations the run writer gathers before it inserts them. */
export const WRITER_BATCH = 500;

export const ITEM_COLS = ["id", "runId", "key", "length", "contentId", "inducedErrorRate"];
/** Where the writer puts an item's content id (its record stored, or found, at the batch's flush). */
export const ITEM_CONTENT = ITEM_COLS.indexOf("contentId");
export const GEN_COLS = [
  "id",
  "runId",
  "itemId",
  "itemKey",
  "length",
  "epoch",
  "output",
  "outputDeflated",
  "firstAnswer",
  "lastAnswer",
  "firstCorrect",
  "lastCorrect",
  "firstDivergence",
  "divergenceKind",
  "modes",
  "clean",
  "statuses",
  "analysis",
  "promptTokens",
  "completionTokens",
  "latencyMs",
  "costUsd",
  "metadata",
  "given",
  "ordinal",
  "stepTrace",
];
/** Where the writer puts a generation's place in the run's item order, and reads its epoch. */
export const GEN_ORDINAL = GEN_COLS.indexOf("ordinal");
export const GEN_EPOCH = GEN_COLS.indexOf("epoch");
export const GEN_FIRST_CORRECT = GEN_COLS.indexOf("firstCorrect");
export const GEN_STEP_TRACE = GEN_COLS.indexOf("stepTrace");
export const GEN_OUTPUT = GEN_COLS.indexOf("output");
export const GEN_OUTPUT_DEFLATED = GEN_COLS.indexOf("outputDeflated");

/**
 * A Generation row (GEN_COLS) as SQLite stores it: the output compressed, `output` emptied
 * (lib/store/output-text.ts). Returns the text, which the search index needs. PostgreSQL
 * rows are stored as built.
 */
export function compressRowOutput(provider: Provider, row: unknown[]): string {
  const text = String(row[GEN_OUTPUT]);
  if (!compressesOutputs(provider)) return text;
  const packed = compressOutput(text);
  if (packed) {
    row[GEN_OUTPUT_DEFLATED] = packed;
    row[GEN_OUTPUT] = "";
  }
  return text;
}

const hasNul = (v: unknown) => typeof v === "string" && v.includes("\0");

const INT_MAX = 2 ** 31 - 1;
const fitsIntColumn = (v: unknown) =>
  v === null || v === undefined || (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= INT_MAX);

/**
 * The field of a generation whose count is not a whole number from 0 to 2^31 − 1 (its epoch,
 * its usage's tokens), or null: the stores' integer columns (PostgreSQL's refused 12.5 or 3e9
 * mid-load without a line; SQLite kept them as they came). Refused on both stores alike.
 */
export function badCountField(ev: { kind: "prepared"; p: PreparedGeneration } | { kind: "generation"; item: NativeItem }): string | null {
  const [epoch, prompt, completion] =
    ev.kind === "prepared"
      ? [ev.p.gen[GEN_EPOCH], ...ev.p.tokens]
      : [ev.item.epoch, ev.item.usage?.prompt_tokens, ev.item.usage?.completion_tokens];
  return !fitsIntColumn(epoch)
    ? "epoch"
    : !fitsIntColumn(prompt)
      ? "usage.prompt_tokens"
      : !fitsIntColumn(completion)
        ? "usage.completion_tokens"
        : null;
}

/**
 * The field of a line whose text holds U+0000, which PostgreSQL's text columns cannot (SQLite's
 * can; JSON columns escape it); null for none. Checked before writing, so that the line is
 * refused with its field named instead of the server failing the load without one.
 */
export function nulTextField(
  ev: { kind: "run"; header: RunHeader } | { kind: "prepared"; p: PreparedGeneration } | { kind: "generation"; item: NativeItem },
): string | null {
  if (ev.kind === "run") {
    const { key, model, variant } = ev.header;
    return hasNul(key)
      ? "key"
      : hasNul(model.name)
        ? "model.name"
        : hasNul(model.family)
          ? "model.family"
          : hasNul(variant.name)
            ? "variant.name"
            : null;
  }
  const [id, output] = ev.kind === "prepared" ? [ev.p.itemKey, ev.p.gen[GEN_OUTPUT]] : [ev.item.id, ev.item.output];
  return hasNul(id) ? "id" : hasNul(output) ? "output" : null;
}
const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

/** Model-side fields other than the text, kept for a faithful export. */
function givenFields(item: NativeItem): string | null {
  const given: Record<string, unknown> = {};
  if (item.steps !== undefined) given.steps = item.steps;
  if (item.answer !== undefined) given.answer = item.answer;
  if (item.usage) given.usage = item.usage;
  // Generation.output is text: remember when the line held turns or nothing at all.
  if (Array.isArray(item.output)) given.output = "turns";
  else if (item.output === null || item.output === undefined) given.output = "none";
  return Object.keys(given).length ? JSON.stringify(given) : null;
}

/** A Generation row in GEN_COLS order. */
export function generationRow(
  genId: number | null,
  runId: number | null,
  itemId: number | null,
  item: NativeItem,
  a: GenerationAnalysis,
  stepTrace: Buffer | null,
  statuses: string = statusLetters(a),
): unknown[] {
  const first = a.firstDivergence === null ? null : (a.steps[a.firstDivergence - 1]?.status ?? null);
  const stored: StoredGenerationAnalysis = {
    answers: a.answers,
    extras: a.extras,
    revised: a.revised,
    turns: a.turns,
    exactStep: a.exactStep,
    hasSteps: a.hasSteps,
    selfConditioning: a.selfConditioning,
  };
  const output =
    item.output === null || item.output === undefined ? "" : typeof item.output === "string" ? item.output : JSON.stringify(item.output);
  return [
    genId,
    runId,
    itemId,
    item.id,
    a.length,
    item.epoch,
    output,
    null,
    a.firstAnswer,
    a.lastAnswer,
    a.firstCorrect,
    a.lastCorrect,
    a.firstDivergence,
    first,
    encodeModes(a.modes),
    a.clean,
    statuses,
    JSON.stringify(stored),
    item.usage?.prompt_tokens ?? null,
    item.usage?.completion_tokens ?? null,
    item.latency_ms ?? null,
    item.cost_usd ?? null,
    json(item.metadata),
    givenFields(item),
    null,
    stepTrace,
  ];
}

/** The record of a generation's item: its input, and the reference where the benchmark keeps it. */
export function itemContentOf(benchmark: string, item: NativeItem, a: GenerationAnalysis): ItemContent {
  return sealItemContent(itemContentTextOf(benchmark, item, a));
}

function itemContentTextOf(benchmark: string, item: NativeItem, a: GenerationAnalysis): string {
  return itemContentText(JSON.stringify(item.input), keepsReference(benchmark) ? JSON.stringify(a.reference) : null);
}

/** Everything the writer stores for one generation, with the ids still to fill in. */
export interface PreparedGeneration {
  itemKey: string;
  /** the item's number in its run, by first appearance (the reader's; lib/native/item-numbering.ts) */
  itemIndex: number;
  /** ITEM_COLS after id, runId and key; contentId null until the writer has stored `content` */
  item: unknown[];
  /**
   * the text of the item's input and reference record (lib/store/item-content.ts), hashed and
   * compressed by the writer unless `ahead` holds the record; null for a later epoch of an item
   * already seen
   */
  content: string | null;
  /** GEN_COLS, the first three (id, runId, itemId) null, and stepTrace null until the writer sets it */
  gen: unknown[];
  /** the text of the generation's step trace record (lib/store/step-trace.ts), compressed by the writer unless `ahead` holds the record; null for none */
  stepTrace: string | null;
  stepCount: number;
  /** what the run's metrics need of it; null where the analysis thread keeps the run's summaries (lib/store/native-thread.ts) */
  summary: GenerationSummary | null;
  /** its usage's token counts as its summary has them, which the loader checks (badCountField) */
  tokens: [number | null, number | null];
  /** the loader's part of the work, where the analysis thread did it ahead (`content` and `stepTrace` then null) */
  ahead?: DoneAhead;
}

/** A generation's rows; only an item's first generation in the run carries its content record. */
export function prepareGeneration({ header, item, analysis: a, itemIndex, firstOfItem }: GenerationEvent): PreparedGeneration {
  const summary = summarise(a, item);
  const gen = generationRow(null, null, null, item, a, null, summary.statuses);
  return {
    itemKey: item.id,
    itemIndex,
    item: [a.length, null, a.selfConditioning?.inducedErrorRate ?? null],
    content: firstOfItem ? itemContentTextOf(header.benchmark, item, a) : null,
    gen,
    stepTrace: a.hasSteps && storesStepTrace(header.benchmark) ? stepTraceText(a.steps) : null,
    stepCount: a.hasSteps ? a.steps.length : 0,
    summary,
    tokens: [summary.promptTokens, summary.completionTokens],
  };
}
