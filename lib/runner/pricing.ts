// Cost per generation from a per-model price table: USD per 1M input and output tokens.
// Built-in entries are a convenience for well-known hosted models and may be out of date; a
// `--prices FILE` table (JSON: {"model name": {"input": 0.15, "output": 0.6}}) overrides them.
// An unknown model has no cost (null), never a guessed one.
import fs from "node:fs";
import { z } from "zod";

export interface Price {
  input: number;
  output: number;
}
export type PriceTable = Record<string, Price>;

export const BUILTIN_PRICES: PriceTable = {
  "gpt-4o": { input: 2.5, output: 10 },
  "gpt-4o-mini": { input: 0.15, output: 0.6 },
  "gpt-4.1": { input: 2, output: 8 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "deepseek-chat": { input: 0.27, output: 1.1 },
  "deepseek-reasoner": { input: 0.55, output: 2.19 },
  // local servers cost nothing per token
  "fake-llm": { input: 0, output: 0 },
};

const priceSchema = z.object({ input: z.number().nonnegative(), output: z.number().nonnegative() });
export const priceTableSchema = z.record(z.string().min(1), priceSchema);

export function readPriceFile(file: string): PriceTable {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`--prices ${file}: ${(e as Error).message}`);
  }
  const r = priceTableSchema.safeParse(json);
  if (!r.success) throw new Error(`--prices ${file}: ${r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return r.data;
}

/** Exact name first, then case-insensitively, then without a provider prefix ("openai/gpt-4o"). */
export function priceFor(model: string, table: PriceTable = BUILTIN_PRICES): Price | null {
  if (table[model]) return table[model];
  const lower = model.toLowerCase();
  const bare = lower.includes("/") ? lower.slice(lower.lastIndexOf("/") + 1) : lower;
  for (const [name, p] of Object.entries(table)) if (name.toLowerCase() === lower || name.toLowerCase() === bare) return p;
  return null;
}

export function costUsd(price: Price | null, promptTokens: number | null, completionTokens: number | null): number | null {
  if (!price || (promptTokens === null && completionTokens === null)) return null;
  const usd = ((promptTokens ?? 0) * price.input + (completionTokens ?? 0) * price.output) / 1e6;
  return Math.round(usd * 1e10) / 1e10;
}
