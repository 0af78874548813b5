// Native lines of the common shape read by hand, without zod (lib/native/schema.ts reads the
// rest and names what is wrong). The analysis thread needs only this module to start: zod's
// import was ~85 ms of the thread's ~170 ms start, which a load waits for (docs/performance.md,
// "Load", stop 48). Each function gives exactly what the schema gives for the lines it accepts
// (the keys in the schema's order, copies where it copies) and null for any other line; property
// tests hold them to the schema (tests/unit/item-line-fast.test.ts, run-line-fast.test.ts).
import type { z } from "zod";
import { BENCHMARKS, type NativeItem, type RunHeader } from "../analysis/types";
import { toleranceFromConfig } from "../analysis/numbers";
import type { itemLineSchema, runLineSchema } from "./schema";

export type ItemLineData = z.infer<typeof itemLineSchema>;
export type RunLineData = z.infer<typeof runLineSchema>;

/** The schemas' keys, in their order (a test checks them against the schemas' shapes). */
export const ITEM_KEYS = [
  "type",
  "id",
  "length",
  "epoch",
  "input",
  "output",
  "reference",
  "steps",
  "answer",
  "usage",
  "latency_ms",
  "cost_usd",
  "metadata",
];
export const RUN_KEYS = ["type", "key", "model", "benchmark", "variant", "config", "source", "created_at"];
export const MODEL_KEYS = ["name", "family", "params_b", "thinking"];
export const VARIANT_KEYS = ["name", "K", "lookback", "dictionary"];
const ITEM_KEY_SET = new Set(ITEM_KEYS);
const USAGE_KEYS = ["prompt_tokens", "completion_tokens"];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isStepValue = (v: unknown) => typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
const isAbsentOrIntFrom = (v: unknown, min: number) => v === undefined || (Number.isSafeInteger(v) && (v as number) >= min);
const isAmount = (v: unknown) => v === undefined || v === null || (typeof v === "number" && Number.isFinite(v) && v >= 0);
const isAbsentOr = (v: unknown, type: "string" | "boolean" | "number") =>
  v === undefined || v === null || (typeof v === type && (type !== "number" || Number.isFinite(v)));
const hasProtoKey = (o: object) => Object.prototype.hasOwnProperty.call(o, "__proto__");
/** A plain object the schema copies as a record: no `__proto__` key, which it treats apart. */
const isRecord = (v: unknown): v is Record<string, unknown> => isObject(v) && !hasProtoKey(v);

/** A copy of a loose object as the schema makes it: the named keys first, in that order, then the others as they came. */
function looseCopy(o: Record<string, unknown>, named: readonly string[], known: ReadonlySet<string> | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of named) if (o[k] !== undefined) out[k] = o[k];
  for (const k in o) if (!(known ? known.has(k) : named.includes(k))) out[k] = o[k];
  return out;
}

/**
 * What itemLineSchema.safeParse gives for a line of the common shape (string id, counts as
 * integers, step values finite, an input object, no `__proto__` key), built by hand: the
 * schema took ~15 µs a line, a tenth of the analysis thread's time (docs/performance.md,
 * "Load"); null for any other line.
 */
export function commonItemLine(obj: unknown): ItemLineData | null {
  if (!isObject(obj) || obj.type !== "item" || hasProtoKey(obj)) return null;
  const { id, length, epoch, input, output, reference, steps, answer, usage } = obj;
  if (typeof id !== "string" || id.length === 0 || !isAbsentOrIntFrom(length, 1) || !isAbsentOrIntFrom(epoch, 0)) return null;
  if (input !== undefined && !isRecord(input)) return null;
  if (output !== undefined && output !== null && typeof output !== "string" && !Array.isArray(output)) return null;
  if (reference !== undefined && !(Array.isArray(reference) && reference.every(isStepValue))) return null;
  if (steps !== undefined && !(Array.isArray(steps) && steps.every((v) => v === null || isStepValue(v)))) return null;
  if (answer !== undefined && answer !== null && !isStepValue(answer)) return null;
  if (usage !== undefined && usage !== null && !(isRecord(usage) && USAGE_KEYS.every((k) => isAmount(usage[k])))) return null;
  if (!isAmount(obj.latency_ms) || !isAmount(obj.cost_usd)) return null;
  const d = looseCopy(obj, ITEM_KEYS, ITEM_KEY_SET);
  // the schema's copies of what it parses: the input object, arrays and usage
  if (input !== undefined) d.input = looseCopy(input, [], null);
  if (Array.isArray(output)) d.output = output.slice();
  if (reference !== undefined) d.reference = reference.slice();
  if (steps !== undefined) d.steps = steps.slice();
  if (isObject(usage)) d.usage = looseCopy(usage, USAGE_KEYS, null);
  return d as ItemLineData;
}

/** `{name}` for a name, a copy of an object with a name and `valid` fields; null otherwise. */
function named(v: unknown, keys: readonly string[], valid: (o: Record<string, unknown>) => boolean): Record<string, unknown> | null {
  if (typeof v === "string") return v.length > 0 ? { name: v } : null;
  if (!isRecord(v) || typeof v.name !== "string" || v.name.length === 0 || !valid(v)) return null;
  return looseCopy(v, keys, null);
}

const validModel = (m: Record<string, unknown>) =>
  isAbsentOr(m.family, "string") && isAbsentOr(m.params_b, "number") && isAbsentOr(m.thinking, "boolean");
const validVariant = (v: Record<string, unknown>) =>
  isAbsentOrIntFrom(v.K, 1) &&
  isAbsentOrIntFrom(v.lookback, 1) &&
  (v.dictionary === undefined ||
    (isRecord(v.dictionary) && Object.values(v.dictionary).every((n) => typeof n === "number" && Number.isFinite(n))));

/** What runLineSchema.safeParse gives for a run line of the common shape, built by hand; null for any other line. */
export function commonRunLine(obj: unknown): RunLineData | null {
  if (!isRecord(obj) || obj.type !== "run") return null;
  const { key, benchmark, config, source, created_at } = obj;
  if (typeof key !== "string" || key.length === 0 || !(BENCHMARKS as readonly unknown[]).includes(benchmark)) return null;
  if (!(config == null || isRecord(config)) || !(source == null || isRecord(source)) || !isAbsentOr(created_at, "string")) return null;
  try {
    toleranceFromConfig(config);
  } catch {
    return null;
  }
  const model = named(obj.model, MODEL_KEYS, validModel);
  const variant = named(obj.variant, VARIANT_KEYS, validVariant);
  if (!model || !variant) return null;
  const d = looseCopy(obj, RUN_KEYS, null);
  d.model = model;
  d.variant = variant;
  if (isObject(variant.dictionary)) variant.dictionary = looseCopy(variant.dictionary, [], null);
  if (isObject(config)) d.config = looseCopy(config, [], null);
  if (isObject(source)) d.source = looseCopy(source, [], null);
  return d as RunLineData;
}

/** A run line's header from what the schema (or commonRunLine) gave. */
export function headerFromLine(d: RunLineData): RunHeader {
  const header: RunHeader = {
    ...d,
    key: d.key,
    model: d.model as RunHeader["model"],
    benchmark: d.benchmark,
    variant: d.variant as RunHeader["variant"],
    config: (d.config ?? {}) as RunHeader["config"],
    source: (d.source ?? null) as RunHeader["source"],
    created_at: d.created_at ?? null,
  };
  delete (header as unknown as Record<string, unknown>).type;
  return header;
}

/** An item line's item from what the schema (or commonItemLine) gave; `length` is 0 when absent (analysis derives it from the input). */
export function itemFromLine(d: ItemLineData): NativeItem {
  const { type: _type, ...rest } = d;
  return {
    ...rest,
    id: d.id,
    length: d.length ?? 0,
    epoch: d.epoch ?? 0,
    input: (d.input ?? {}) as NativeItem["input"],
    output: (d.output ?? null) as NativeItem["output"],
    usage: d.usage as NativeItem["usage"],
  };
}
