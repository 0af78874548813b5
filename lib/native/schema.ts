// zod schemas for the native JSONL lines (SPEC §5). Unknown extra fields are kept, so files
// written by newer harnesses still load. Benchmark semantics are checked in lib/analysis.
import { z } from "zod";
import { BENCHMARKS, type FieldError, type NativeItem, type RunHeader } from "../analysis/types";
import { toleranceFromConfig } from "../analysis/numbers";

// Messages name the field the way users write it: "model name is required".
const req = (what: string, expected: string) => ({
  error: (iss: { input?: unknown }) => (iss.input === undefined ? `${what} is required` : `${what} must be ${expected}`),
});

const finiteNonNeg = z.number().refine((v) => Number.isFinite(v) && v >= 0, "must be a non-negative number");

// `"model": "Qwen3-32B"` and `"variant": "lookback-3"` are accepted as shorthand for {name}.
const named = (v: unknown) => (typeof v === "string" ? { name: v } : v);

const modelSchema = z.preprocess(
  named,
  z.looseObject(
    {
      name: z.string(req("model name", "a string")).min(1, "model name is required"),
      family: z.string().nullish(),
      params_b: z.number().nullish(),
      thinking: z.boolean().nullish(),
    },
    req("model", "an object with a name"),
  ),
);

const variantSchema = z.preprocess(
  named,
  z.looseObject(
    {
      name: z.string(req("variant name", "a string")).min(1, "variant name is required"),
      K: z.number().int("K must be a positive integer").min(1, "K must be a positive integer").optional(),
      lookback: z.number().int("lookback must be a positive integer").min(1, "lookback must be a positive integer").optional(),
      dictionary: z.record(z.string(), z.number()).optional(),
    },
    req("variant", "an object with a name"),
  ),
);

const configSchema = z
  .record(z.string(), z.unknown(), req("config", "an object"))
  .nullish()
  .superRefine((c, ctx) => {
    try {
      toleranceFromConfig(c ?? {});
    } catch (e) {
      ctx.addIssue({ code: "custom", path: ["tolerance"], message: (e as Error).message });
    }
  });

export const runLineSchema = z.looseObject({
  type: z.literal("run"),
  key: z.string(req("run key", "a string")).min(1, "run key is required"),
  model: modelSchema,
  benchmark: z.enum(BENCHMARKS, {
    error: (iss) =>
      iss.input === undefined
        ? "benchmark is required"
        : `unknown benchmark ${JSON.stringify(iss.input)} (expected one of ${BENCHMARKS.join(", ")})`,
  }),
  variant: variantSchema,
  config: configSchema,
  source: z.record(z.string(), z.unknown(), req("source", "an object")).nullish(),
  created_at: z.string(req("created_at", "a string")).nullish(),
});

const stepValue = z.union([z.number(), z.string()], { error: "must be a number or a string" });

export const itemLineSchema = z.looseObject({
  type: z.literal("item"),
  id: z.union([z.string().min(1, "item id is required"), z.number().int().transform(String)], req("item id", "a string")),
  length: z.number().int("length must be a positive integer").min(1, "length must be a positive integer").optional(),
  epoch: z.number().int("epoch must be a non-negative integer").min(0, "epoch must be a non-negative integer").optional(),
  input: z.record(z.string(), z.unknown()).optional(),
  output: z.union([z.string(), z.array(z.unknown())]).nullish(),
  reference: z.array(stepValue).optional(),
  steps: z.array(z.union([z.number(), z.string(), z.null()], { error: "must be a number, a string or null" })).optional(),
  answer: stepValue.nullish(),
  usage: z.looseObject({ prompt_tokens: finiteNonNeg.nullish(), completion_tokens: finiteNonNeg.nullish() }).nullish(),
  latency_ms: finiteNonNeg.nullish(),
  cost_usd: finiteNonNeg.nullish(),
  metadata: z.unknown().optional(),
});

/** Dotted path with [i] for array indices: `input.steps[1].op`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let s = "";
  for (const p of path) {
    if (typeof p === "number") s += `[${p}]`;
    else s += s ? `.${String(p)}` : String(p);
  }
  return s || "-";
}

function issues(err: z.ZodError): FieldError[] {
  return err.issues.map((i) => ({ field: formatPath(i.path), message: i.message }));
}

export function parseRunLine(obj: unknown): { header: RunHeader | null; errors: FieldError[] } {
  const r = runLineSchema.safeParse(obj);
  if (!r.success) return { header: null, errors: issues(r.error) };
  const d = r.data;
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
  return { header, errors: [] };
}

/**
 * Item line → NativeItem; `length` is 0 when absent (analysis derives it from the input).
 * Lines whose fields all have the common shape are read by hand (`commonItemLine`); the
 * schema reads the rest and names what is wrong. `bySchema` reads every line with the schema
 * (the tests' oracle for the hand-read path).
 */
export function parseItemLine(obj: unknown, { bySchema = false } = {}): { item: NativeItem | null; errors: FieldError[] } {
  let d = bySchema ? null : commonItemLine(obj);
  if (!d) {
    const r = itemLineSchema.safeParse(obj);
    if (!r.success) return { item: null, errors: issues(r.error) };
    d = r.data;
  }
  const { type: _type, ...rest } = d;
  const item: NativeItem = {
    ...rest,
    id: d.id,
    length: d.length ?? 0,
    epoch: d.epoch ?? 0,
    input: (d.input ?? {}) as NativeItem["input"],
    output: (d.output ?? null) as NativeItem["output"],
    usage: d.usage as NativeItem["usage"],
  };
  return { item, errors: [] };
}

type ItemLineData = z.infer<typeof itemLineSchema>;
const ITEM_KEYS = Object.keys(itemLineSchema.shape);
const ITEM_KEY_SET = new Set(ITEM_KEYS);
const USAGE_KEYS = ["prompt_tokens", "completion_tokens"];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isStepValue = (v: unknown) => typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
const isAbsentOrIntFrom = (v: unknown, min: number) => v === undefined || (Number.isSafeInteger(v) && (v as number) >= min);
const isAmount = (v: unknown) => v === undefined || v === null || (typeof v === "number" && Number.isFinite(v) && v >= 0);
const hasProtoKey = (o: object) => Object.prototype.hasOwnProperty.call(o, "__proto__");

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
function commonItemLine(obj: unknown): ItemLineData | null {
  if (!isObject(obj) || obj.type !== "item" || hasProtoKey(obj)) return null;
  const { id, length, epoch, input, output, reference, steps, answer, usage } = obj;
  if (typeof id !== "string" || id.length === 0 || !isAbsentOrIntFrom(length, 1) || !isAbsentOrIntFrom(epoch, 0)) return null;
  if (input !== undefined && (!isObject(input) || hasProtoKey(input))) return null;
  if (output !== undefined && output !== null && typeof output !== "string" && !Array.isArray(output)) return null;
  if (reference !== undefined && !(Array.isArray(reference) && reference.every(isStepValue))) return null;
  if (steps !== undefined && !(Array.isArray(steps) && steps.every((v) => v === null || isStepValue(v)))) return null;
  if (answer !== undefined && answer !== null && !isStepValue(answer)) return null;
  if (usage !== undefined && usage !== null && !(isObject(usage) && !hasProtoKey(usage) && USAGE_KEYS.every((k) => isAmount(usage[k]))))
    return null;
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
