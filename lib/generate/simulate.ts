// A deterministic simulated model: it executes an item the way a fallible LLM would and
// writes the text a real model would return, so the whole pipeline (parsers, diff,
// metrics, views) can be exercised without an API. Errors are drawn from a profile of
// probabilities; the seed is (profile, item id, epoch), so outputs are reproducible.

import { z } from "zod";
import { createRng, hashSeed } from "./rng";
import { buildMessages, estimateTokens, type PromptHeader } from "./prompts";
import { simulateArith } from "./simulate-arith";
import { simulateDictSum } from "./simulate-dictsum";

export const simProfileSchema = z.object({
  /** profile id, e.g. "alpha" */
  name: z.string().min(1),
  /** per-step probability of executing a step right (given the model's own operands) */
  stepReliability: z.number().min(0).max(1),
  // per-generation probabilities of each failure behaviour
  premature: z.number().min(0).max(1).default(0),
  missingAnswer: z.number().min(0).max(1).default(0),
  formatError: z.number().min(0).max(1).default(0),
  selfCorrection: z.number().min(0).max(1).default(0),
  underExecute: z.number().min(0).max(1).default(0),
  extraSteps: z.number().min(0).max(1).default(0),
  /** writes <think> blocks (dict-sum) and is immune to self-conditioning */
  thinking: z.boolean().default(false),
  /** share of arith lines written `Step j: …` instead of `S<j> = …` (style only) */
  stepLabels: z.number().min(0).max(1).default(0.08),
  /** share of answers written `Final answer:` or `\boxed{}` instead of <answer> (style only) */
  altAnswerStyle: z.number().min(0).max(1).default(0.15),
  /** accuracy lost at induced error rate 1 (relative), non-thinking models only */
  selfConditioning: z.number().min(0).max(1).default(0.6),
  model: z
    .object({
      name: z.string().min(1),
      family: z.string().nullable().default("SimModel"),
      params_b: z.number().positive().nullable().default(null),
      thinking: z.boolean().nullable().default(null),
    })
    .optional(),
  msPerToken: z.number().nonnegative().default(12),
  usdPerMillionInput: z.number().nonnegative().default(0.2),
  usdPerMillionOutput: z.number().nonnegative().default(0.6),
});
export type SimProfile = z.output<typeof simProfileSchema>;
export type SimProfileInput = z.input<typeof simProfileSchema>;

const PRESETS: SimProfileInput[] = [
  {
    name: "alpha",
    model: { name: "Sim-Alpha-8B", params_b: 8, thinking: false },
    stepReliability: 0.975,
    premature: 0.06,
    missingAnswer: 0.04,
    formatError: 0.03,
    selfCorrection: 0.05,
    underExecute: 0.08,
    extraSteps: 0.03,
    selfConditioning: 0.6,
    msPerToken: 9,
    usdPerMillionInput: 0.1,
    usdPerMillionOutput: 0.3,
  },
  {
    name: "beta",
    model: { name: "Sim-Beta-3B", params_b: 3, thinking: false },
    stepReliability: 0.93,
    premature: 0.12,
    missingAnswer: 0.08,
    formatError: 0.05,
    selfCorrection: 0.04,
    underExecute: 0.15,
    extraSteps: 0.06,
    stepLabels: 0.15,
    selfConditioning: 0.7,
    msPerToken: 6,
    usdPerMillionInput: 0.05,
    usdPerMillionOutput: 0.15,
  },
  {
    name: "gamma",
    model: { name: "Sim-Gamma-70B-Thinking", params_b: 70, thinking: true },
    stepReliability: 0.997,
    thinking: true,
    premature: 0.01,
    missingAnswer: 0.01,
    formatError: 0.005,
    selfCorrection: 0.03,
    underExecute: 0.01,
    extraSteps: 0.01,
    selfConditioning: 0,
    msPerToken: 25,
    usdPerMillionInput: 0.9,
    usdPerMillionOutput: 2.7,
  },
  {
    name: "delta",
    model: { name: "Sim-Delta-2B", params_b: 2, thinking: false },
    stepReliability: 0.88,
    premature: 0.18,
    missingAnswer: 0.12,
    formatError: 0.08,
    selfCorrection: 0.03,
    underExecute: 0.2,
    extraSteps: 0.1,
    stepLabels: 0.2,
    altAnswerStyle: 0.25,
    selfConditioning: 0.8,
    msPerToken: 5,
    usdPerMillionInput: 0.03,
    usdPerMillionOutput: 0.1,
  },
  {
    name: "epsilon",
    model: { name: "Sim-Epsilon-32B", params_b: 32, thinking: false },
    stepReliability: 0.99,
    premature: 0.03,
    missingAnswer: 0.02,
    formatError: 0.01,
    selfCorrection: 0.06,
    underExecute: 0.04,
    extraSteps: 0.02,
    selfConditioning: 0.5,
    msPerToken: 15,
    usdPerMillionInput: 0.4,
    usdPerMillionOutput: 1.2,
  },
  { name: "perfect", model: { name: "Sim-Perfect" }, stepReliability: 1, stepLabels: 0, altAnswerStyle: 0, selfConditioning: 0 },
];

export const SIM_PROFILES: Record<string, SimProfile> = Object.fromEntries(PRESETS.map((p) => [p.name, simProfileSchema.parse(p)]));

/** A preset by id or model name, case-insensitively; null when unknown. */
export function findProfile(name: string): SimProfile | null {
  const n = name.toLowerCase();
  for (const p of Object.values(SIM_PROFILES)) {
    if (p.name === n || p.model?.name.toLowerCase() === n) return p;
  }
  return null;
}

/** A profile with only step slips: no failure behaviours, no self-conditioning, plain formats. */
export function profileFromP(p: number): SimProfile {
  return simProfileSchema.parse({
    name: `p${p}`,
    model: { name: `Sim-P${p}` },
    stepReliability: p,
    stepLabels: 0,
    altAnswerStyle: 0,
    selfConditioning: 0,
  });
}

/** The `model` object of a run line for a profile. */
export function profileModel(profile: SimProfile): { name: string; family: string | null; params_b: number | null; thinking: boolean } {
  return {
    name: profile.model?.name ?? `Sim-${profile.name}`,
    family: profile.model?.family ?? "SimModel",
    params_b: profile.model?.params_b ?? null,
    thinking: profile.model?.thinking ?? profile.thinking,
  };
}

export interface SimItem {
  id: string;
  length: number;
  epoch?: number;
  input: { [k: string]: unknown };
}

export interface SimResult {
  output: string | string[];
  usage: { prompt_tokens: number; completion_tokens: number };
  latency_ms: number;
  cost_usd: number;
}

/**
 * Simulate one generation. The header needs benchmark, variant (with dictionary and K for
 * dict-sum) and, for self-conditioning, nothing more: items carry shown and the rate.
 */
export function simulateGeneration(header: PromptHeader, item: SimItem, profile: SimProfile): SimResult {
  const rng = createRng(hashSeed("simulate", profile.name, profile.stepReliability, item.id, item.epoch ?? 0));
  let output: string | string[];
  if (header.benchmark === "procedural-arith") {
    output = simulateArith(profile, item, rng);
  } else if (header.benchmark === "dict-sum") {
    output = simulateDictSum(profile, header, item, rng);
  } else {
    throw new Error(`cannot simulate benchmark ${JSON.stringify(header.benchmark)}`);
  }
  const texts = Array.isArray(output) ? output : [output];
  // multi-turn: every turn resends the conversation so far, so prompt tokens add up
  let promptTokens = estimateTokens(buildMessages(header, item));
  if (texts.length > 1) {
    const base = promptTokens;
    promptTokens = 0;
    let history = 0;
    for (const t of texts) {
      promptTokens += base + history;
      history += estimateTokens(t) + 6;
    }
  }
  const completionTokens = texts.reduce((n, t) => n + estimateTokens(t), 0);
  const latency = Math.round(200 * texts.length + completionTokens * profile.msPerToken * (0.85 + 0.3 * rng.next()));
  const cost = (promptTokens * profile.usdPerMillionInput + completionTokens * profile.usdPerMillionOutput) / 1e6;
  return {
    output,
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens },
    latency_ms: latency,
    cost_usd: Math.round(cost * 1e8) / 1e8,
  };
}
