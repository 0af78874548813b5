// zod schemas for the native JSONL lines (SPEC §5). Unknown extra fields are kept, so files
// written by newer harnesses still load. Benchmark semantics are checked in lib/analysis.
import { z } from "zod";
import { BENCHMARKS, type FieldError, type NativeItem, type RunHeader } from "../analysis/types";
import { toleranceFromConfig } from "../analysis/numbers";
import { commonItemLine, commonRunLine, headerFromLine, itemFromLine } from "./common-lines";
import type { LineSchemas } from "./line-reader";

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

/**
 * Run line → header. Lines of the common shape are read by hand (`commonRunLine`); the schema
 * reads the rest and names what is wrong. `bySchema` reads every line with the schema (the
 * tests' oracle for the hand-read path).
 */
export function parseRunLine(obj: unknown, { bySchema = false } = {}): { header: RunHeader | null; errors: FieldError[] } {
  let d = bySchema ? null : commonRunLine(obj);
  if (!d) {
    const r = runLineSchema.safeParse(obj);
    if (!r.success) return { header: null, errors: issues(r.error) };
    d = r.data;
  }
  return { header: headerFromLine(d), errors: [] };
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
  return { item: itemFromLine(d), errors: [] };
}

/** The schemas for a LineReader, which has tried the hand-read path on a line before it asks them. */
export const lineSchemas: LineSchemas = {
  parseRunLine: (obj) => parseRunLine(obj, { bySchema: true }),
  parseItemLine: (obj) => parseItemLine(obj, { bySchema: true }),
};
