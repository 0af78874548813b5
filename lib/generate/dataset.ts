// Native JSONL (SPEC §5) for a generated variant: one `run` line, then `item` lines, produced
// lazily so a dataset of any size streams in constant memory. Without a simulated model the
// items have no `output`: that is a dataset file for `stepwise run` (SPEC §8).

import { z } from "zod";
import { ARITH_OPS, arithItems, checkArithFeasible, arithReference, arithVariantName, type ArithInput } from "./arith";
import {
  dictSumItems,
  dictVariantName,
  makeDictionary,
  runningSums,
  selfConditioningItems,
  selfConditioningVariantName,
  MAX_DICT_SIZE,
} from "./dictsum";
import { PROMPT_VERSION } from "./prompts";
import { findProfile, profileFromP, profileModel, simProfileSchema, simulateGeneration, type SimProfile } from "./simulate";

export const HARNESS = "stepwise 0.1";

const int = z.number().int();
const pair = z.tuple([z.number(), z.number()]);

export const generateOptionsSchema = z
  .object({
    benchmark: z.enum(["procedural-arith", "dict-sum"]),
    lengths: z.array(int.min(1).max(100000)).min(1).optional(),
    itemsPerLength: int.min(1).default(10),
    seed: int
      .min(0)
      .max(2 ** 32 - 1)
      .default(0),
    // procedural-arith
    lookback: int.min(2).max(1000).default(3),
    inputRange: pair.default([1, 10]),
    ops: z.enum(["mixed", ...ARITH_OPS]).default("mixed"),
    decimals: int.min(0).max(6).default(3),
    // dict-sum
    dictSize: int.min(1).max(MAX_DICT_SIZE).default(100),
    valueRange: z.tuple([int, int]).default([-99, 99]),
    k: int.min(1).default(1),
    singleTurn: z.boolean().default(false),
    selfConditioning: z.boolean().default(false),
    rates: z.array(z.number().min(0).max(1)).min(1).default([0, 0.25, 0.5, 0.75, 1]),
    targetTurn: int.min(2).max(100000).default(100),
    // run line
    model: z.string().min(1).optional(),
    runKey: z.string().min(1).optional(),
    variantName: z.string().min(1).optional(),
    createdAt: z.string().nullable().default(null),
    // simulated outputs
    simulate: z.union([z.string().min(1), simProfileSchema]).optional(),
    simulateP: z.number().min(0).max(1).optional(),
    epochs: int.min(1).max(100).default(1),
    withReference: z.boolean().default(false),
  })
  .superRefine((o, ctx) => {
    const bad = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (!o.selfConditioning && !o.lengths) bad("lengths", "required (a comma-separated list of lengths)");
    if (o.selfConditioning && o.benchmark !== "dict-sum") bad("selfConditioning", "only for --benchmark dict-sum");
    if (o.singleTurn && o.benchmark !== "dict-sum") bad("singleTurn", "only for --benchmark dict-sum");
    if (o.selfConditioning && o.singleTurn) bad("singleTurn", "cannot be combined with self-conditioning");
    if (o.benchmark === "procedural-arith" && o.lengths?.some((l) => l < 3)) bad("lengths", "procedural-arith lengths must be ≥ 3");
    if (!(o.inputRange[0] <= o.inputRange[1])) bad("inputRange", "low must be ≤ high");
    if (o.decimals === 0 && Math.floor(o.inputRange[1]) < Math.ceil(o.inputRange[0])) bad("inputRange", "holds no integer");
    if (!(o.valueRange[0] <= o.valueRange[1])) bad("valueRange", "low must be ≤ high");
    if (new Set(o.rates).size !== o.rates.length) bad("rates", "must not repeat a rate");
    if (o.simulate !== undefined && o.simulateP !== undefined) bad("simulateP", "give either a profile or a p, not both");
    if (typeof o.simulate === "string" && !findProfile(o.simulate)) bad("simulate", `unknown profile ${JSON.stringify(o.simulate)}`);
    if (o.epochs > 1 && o.simulate === undefined && o.simulateP === undefined) bad("epochs", "only with a simulated model");
  });

export type GenerateOptionsInput = z.input<typeof generateOptionsSchema>;
export type GenerateOptions = z.output<typeof generateOptionsSchema>;

export interface RunLine {
  type: "run";
  key: string;
  model: { name: string; family?: string | null; params_b?: number | null; thinking?: boolean | null };
  benchmark: "procedural-arith" | "dict-sum";
  variant: { name: string; [k: string]: unknown };
  config: { [k: string]: unknown };
  source: { [k: string]: unknown };
  created_at: string | null;
}

export interface ItemLine {
  type: "item";
  id: string;
  length: number;
  epoch?: number;
  input: { [k: string]: unknown };
  reference?: number[];
  output?: string | string[];
  usage?: { prompt_tokens: number; completion_tokens: number };
  latency_ms?: number;
  cost_usd?: number;
}

export interface GeneratedRun {
  header: RunLine;
  items: () => Generator<ItemLine>;
}

export function resolveProfile(o: GenerateOptions): SimProfile | null {
  if (o.simulateP !== undefined) return profileFromP(o.simulateP);
  if (o.simulate === undefined) return null;
  return typeof o.simulate === "string" ? findProfile(o.simulate) : o.simulate;
}

export function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9.]+/g, "-")
      .replace(/^-+|-+$/g, "") || "model"
  );
}

/** Validates (throws a ZodError naming the option) and builds the run line and its items. */
export function generateRun(input: GenerateOptionsInput): GeneratedRun {
  const o = generateOptionsSchema.parse(input);
  const profile = resolveProfile(o);
  const model = profile ? { ...profileModel(profile), ...(o.model ? { name: o.model } : {}) } : { name: o.model ?? "dataset" };

  let variant: RunLine["variant"];
  const config: RunLine["config"] = { temperature: 0, epochs: o.epochs };
  let raw: () => Generator<{ id: string; length: number; input: { [k: string]: unknown } }>;
  if (o.benchmark === "procedural-arith") {
    const settings = { lookback: o.lookback, inputRange: o.inputRange as [number, number], ops: o.ops, decimals: o.decimals };
    variant = { name: o.variantName ?? arithVariantName(settings), lookback: o.lookback, input_range: o.inputRange, ops: o.ops };
    if (o.decimals !== 3) variant.decimals = o.decimals;
    variant.lengths = o.lengths;
    variant.seed = o.seed;
    const lengths = o.lengths ?? [];
    checkArithFeasible({ ...settings, lengths, itemsPerLength: o.itemsPerLength, seed: o.seed });
    raw = () => arithItems({ ...settings, lengths, itemsPerLength: o.itemsPerLength, seed: o.seed }) as ReturnType<typeof raw>;
  } else {
    const dictionary = makeDictionary(o.seed, o.dictSize, o.valueRange as [number, number]);
    const ds = { dictSize: o.dictSize, valueRange: o.valueRange as [number, number], K: o.k, multiTurn: !o.singleTurn };
    const name = o.variantName ?? (o.selfConditioning ? selfConditioningVariantName(ds, o.targetTurn) : dictVariantName(ds));
    variant = { name, K: o.k, dict_size: o.dictSize, value_range: o.valueRange, multi_turn: !o.singleTurn };
    if (!o.selfConditioning) variant.lengths = o.lengths;
    variant.seed = o.seed;
    variant.dictionary = dictionary;
    if (o.selfConditioning) {
      config.target_turn = o.targetTurn;
      config.induced_error_rates = [...o.rates].sort((a, b) => a - b);
      if (o.rates.length === 1) config.induced_error_rate = o.rates[0];
      raw = () =>
        selfConditioningItems({
          seed: o.seed,
          dictionary,
          K: o.k,
          targetTurn: o.targetTurn,
          rates: o.rates,
          itemsPerRate: o.itemsPerLength,
        });
    } else {
      const lengths = o.lengths ?? [];
      raw = () => dictSumItems({ seed: o.seed, lengths, itemsPerLength: o.itemsPerLength, dictionary, K: o.k, multiTurn: !o.singleTurn });
    }
  }
  config.prompt_version = PROMPT_VERSION;
  config.seed = o.seed;

  const header: RunLine = {
    type: "run",
    key: o.runKey ?? `${profile ? slug(model.name) : "dataset"}__${variant.name}__seed${o.seed}`,
    model,
    benchmark: o.benchmark,
    variant,
    config,
    source: {
      harness: HARNESS,
      generator: "stepwise generate",
      ...(profile ? { simulated: profile.name, note: "generated by a simulated model" } : {}),
    },
    created_at: o.createdAt,
  };

  function* items(): Generator<ItemLine> {
    for (const it of raw()) {
      const base: ItemLine = { type: "item", id: it.id, length: it.length, input: it.input };
      if (o.withReference && !o.selfConditioning) {
        base.reference =
          o.benchmark === "procedural-arith"
            ? arithReference(it.input as unknown as ArithInput)
            : runningSums(it.input.keys as string[], variant.dictionary as Record<string, number>);
      }
      if (!profile) {
        yield base;
        continue;
      }
      for (let epoch = 0; epoch < o.epochs; epoch++) {
        const sim = simulateGeneration(header, { ...it, epoch }, profile);
        yield {
          ...base,
          ...(o.epochs > 1 ? { epoch } : {}),
          output: sim.output,
          usage: sim.usage,
          latency_ms: sim.latency_ms,
          cost_usd: sim.cost_usd,
        };
      }
    }
  }
  return { header, items };
}

/** The JSONL lines (without newline) of one generated run: `run` first, then items. */
export function* generateDataset(input: GenerateOptionsInput): Generator<string> {
  const { header, items } = generateRun(input);
  yield JSON.stringify(header);
  for (const item of items()) yield JSON.stringify(item);
}
