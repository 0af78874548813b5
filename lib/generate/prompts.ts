// Prompt text per task family. The answer formats requested here are exactly what the
// parsers read (SPEC §2, examples/README.md): `S<j> = … = <value>` lines and
// `<answer>…</answer>`. Bump PROMPT_VERSION whenever any text changes: runs record it, and
// results under different prompts are not comparable.

import { turnKeys, turnCount } from "./dictsum";

export const PROMPT_VERSION = "stepwise-prompts-v1";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** What prompt building needs of a run line. */
export interface PromptHeader {
  benchmark: string;
  variant: { [k: string]: unknown };
  config?: { [k: string]: unknown } | null;
}
/** What prompt building needs of an item line. */
export interface PromptItem {
  length: number;
  input: object;
}

const inputOf = (item: PromptItem) => item.input as { [k: string]: unknown };

const ARITH_SYSTEM =
  "You are a meticulous calculator. You execute arithmetic procedures exactly as written, " + "one step at a time, and never skip a step.";

const ARITH_EXAMPLE = [
  "Example (a procedure of 5 steps):",
  "S1 = x = 2",
  "S2 = y = 3",
  "S3 = S1 + S2",
  "S4 = S3 * S2",
  "S5 = S4 / S1",
  "",
  "Correct execution:",
  "S1 = 2",
  "S2 = 3",
  "S3 = S1 + S2 = 2 + 3 = 5",
  "S4 = S3 * S2 = 5 * 3 = 15",
  "S5 = S4 / S1 = 15 / 2 = 7.5",
  "<answer>7.5</answer>",
].join("\n");

interface ArithLike {
  x: number;
  y: number;
  steps: { op: string; a: number; b: number }[];
}

export function arithUserPrompt(input: ArithLike): string {
  const L = input.steps.length + 2;
  const lines = [`S1 = x = ${input.x}`, `S2 = y = ${input.y}`];
  input.steps.forEach((st, i) => lines.push(`S${i + 3} = S${st.a} ${st.op} S${st.b}`));
  return [
    `Execute the following procedure of ${L} steps. It defines the variables S1 to S${L}.`,
    "",
    ...lines,
    "",
    "Rules:",
    "- Compute the variables in order, one line per variable, in exactly this form:",
    "  S<j> = S<a> <op> S<b> = <value of S<a>> <op> <value of S<b>> = <result>",
    "  and for the inputs: S1 = <x> and S2 = <y>.",
    "- Use the operators + - * /. Write a negative operand in parentheses, e.g. 4 - (-2.5) = 6.5.",
    "- Keep at least 4 decimal places in intermediate results. State every variable exactly once.",
    `- After S${L}, give S${L} rounded to 3 decimal places as <answer>NUMBER</answer>, with nothing after it.`,
    "",
    ARITH_EXAMPLE,
  ].join("\n");
}

function dictionaryBlock(dict: Record<string, number>): string {
  return Object.entries(dict)
    .map(([w, v]) => `${w}: ${v}`)
    .join("\n");
}

function keysLine(keys: readonly string[]): string {
  return keys.length === 1 ? `Key: ${keys[0]}` : `Keys: ${keys.join(", ")}`;
}

export function dictSumSystemPrompt(dict: Record<string, number>, K: number): string {
  const per = K === 1 ? "one key" : `${K} keys`;
  return [
    "You keep a running sum of values looked up in a dictionary.",
    "",
    "Dictionary (word: value):",
    dictionaryBlock(dict),
    "",
    `The running sum starts at 0. Each turn gives you ${per} (the last turn may have fewer).`,
    "Look up the value of each key, add it to the running sum, and reply with the new running sum",
    "as an integer inside <answer></answer> tags, e.g. <answer>-17</answer>. Reply with the tag only.",
    "",
    'Example: the running sum is 12 and the turn says "Keys: plumb, varok" with plumb: 5 and',
    "varok: -30. The new running sum is 12 + 5 - 30 = -13, so the reply is <answer>-13</answer>.",
  ].join("\n");
}

export function dictSumSingleTurnPrompt(dict: Record<string, number>, keys: readonly string[], K: number): string {
  const turns = turnKeys(keys, K);
  return [
    "You keep a running sum of values looked up in a dictionary.",
    "",
    "Dictionary (word: value):",
    dictionaryBlock(dict),
    "",
    `The running sum starts at 0. Below are ${turns.length} turns. For each turn, look up the value of`,
    "each of its keys and add it to the running sum. Report the running sum after every turn, in",
    "order, as comma-separated integers inside one tag:",
    `<answer>SUM_AFTER_TURN_1, SUM_AFTER_TURN_2, ..., SUM_AFTER_TURN_${turns.length}</answer>`,
    "",
    'Example: turns "plumb" (5), "varok" (-30), "plumb" (5) give <answer>5, -25, -20</answer>.',
    "",
    ...turns.map((ks, i) => `Turn ${i + 1}: ${ks.join(", ")}`),
  ].join("\n");
}

function dictOf(header: PromptHeader, item: PromptItem): Record<string, number> {
  const d = (inputOf(item).dictionary ?? header.variant.dictionary) as Record<string, number> | undefined;
  if (!d || typeof d !== "object") throw new Error("dict-sum item has no dictionary (input.dictionary or variant.dictionary)");
  return d;
}

function kOf(header: PromptHeader): number {
  const K = header.variant.K;
  return typeof K === "number" && K >= 1 ? K : 1;
}

/** True when the conversation is one user message per turn (multi-turn dict-sum). */
export function isMultiTurn(header: PromptHeader, item: PromptItem): boolean {
  return header.benchmark === "dict-sum" && header.variant.multi_turn !== false && !Array.isArray(inputOf(item).shown);
}

/** Number of assistant replies a full generation needs. */
export function replyCount(header: PromptHeader, item: PromptItem): number {
  return isMultiTurn(header, item) ? turnCount(item.length, kOf(header)) : 1;
}

/**
 * The chat messages to send next. Single-shot items (arith, single-turn dict-sum,
 * self-conditioning) ignore `replies`. For multi-turn dict-sum, pass the assistant replies
 * so far: the result ends with the user message of turn replies.length + 1. Self-conditioning
 * injects the shown (possibly corrupted) history as the model's own earlier answers.
 */
export function buildMessages(header: PromptHeader, item: PromptItem, replies: readonly string[] = []): ChatMessage[] {
  if (header.benchmark === "procedural-arith") {
    return [
      { role: "system", content: ARITH_SYSTEM },
      { role: "user", content: arithUserPrompt(item.input as unknown as ArithLike) },
    ];
  }
  if (header.benchmark !== "dict-sum") {
    throw new Error(`no prompt for benchmark ${JSON.stringify(header.benchmark)}`);
  }
  const input = inputOf(item);
  const dict = dictOf(header, item);
  const K = kOf(header);
  const keys = input.keys as string[];
  const turns = turnKeys(keys, K);

  if (Array.isArray(input.shown)) {
    const shown = input.shown as number[];
    const msgs: ChatMessage[] = [{ role: "system", content: dictSumSystemPrompt(dict, K) }];
    shown.forEach((v, i) => {
      msgs.push({ role: "user", content: keysLine(turns[i]) });
      msgs.push({ role: "assistant", content: `<answer>${v}</answer>` });
    });
    msgs.push({ role: "user", content: keysLine(turns[shown.length]) });
    return msgs;
  }
  if (header.variant.multi_turn === false) {
    return [{ role: "user", content: dictSumSingleTurnPrompt(dict, keys, K) }];
  }
  if (replies.length >= turns.length) throw new Error(`all ${turns.length} turns already answered`);
  const msgs: ChatMessage[] = [{ role: "system", content: dictSumSystemPrompt(dict, K) }];
  for (let t = 0; t <= replies.length; t++) {
    msgs.push({ role: "user", content: keysLine(turns[t]) });
    if (t < replies.length) msgs.push({ role: "assistant", content: replies[t] });
  }
  return msgs;
}

/** Rough token count (≈ 4 characters a token), for simulated usage numbers. */
export function estimateTokens(text: string | readonly ChatMessage[]): number {
  const chars = typeof text === "string" ? text.length : text.reduce((n, m) => n + m.content.length + 4, 0);
  return Math.max(1, Math.round(chars / 4));
}
