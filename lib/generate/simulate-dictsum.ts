// Simulated dict-sum replies: multi-turn (one text per turn), single-turn (one list) and
// self-conditioning (one target-turn text given a possibly corrupted history). The model
// adds to its own previous answer, so a slip propagates as in SPEC §3.

import { turnKeys, type Dictionary } from "./dictsum";
import type { PromptHeader } from "./prompts";
import type { Rng } from "./rng";
import type { SimItem, SimProfile } from "./simulate";

const NO_TAG = ["I am not sure what the running sum is now.", "Let me think about that.", "I lost track of the total here."];
const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

/** A wrong update: an arithmetic slip, a dropped sign, or a forgotten key. */
function slipTurn(rng: Rng, correct: number, values: number[]): number {
  const r = rng.next();
  const v = rng.choice(values);
  if (r < 0.3 && v !== 0) return correct - 2 * v; // subtracted instead of added
  if (r < 0.5 && v !== 0) return correct - v; // skipped a key
  const off = rng.int(1, 20);
  return rng.chance(0.5) ? correct + off : correct - off;
}

/** Not an integer, but clearly an attempt at one. */
function invalidAnswer(rng: Rng, value: number): string {
  if (value >= 0 && value <= 10 && rng.chance(0.7)) return NUMBER_WORDS[value];
  return rng.chance(0.5) ? `${value}.5` : `about ${value}`;
}

function thinkBlock(rng: Rng, keys: string[], values: number[], prev: number, next: number, draftWrong: number | null): string {
  const looked = keys.map((k, i) => `${k} is ${values[i]}`).join(", ");
  const total = values.reduce((a, b) => a + b, 0);
  const sum = `${prev} plus ${total} is ${next}`;
  if (draftWrong !== null) return `<think>${looked}. Maybe <answer>${draftWrong}</answer>? No, let me recompute: ${sum}.</think>`;
  return `<think>${looked}. ${sum}.</think>`;
}

function turnText(rng: Rng, profile: SimProfile, keys: string[], values: number[], prev: number, answer: number): string {
  if (profile.thinking || rng.chance(0.12)) {
    const draft = rng.chance(0.15) ? answer + rng.int(1, 9) * (rng.chance(0.5) ? 1 : -1) : null;
    return `${thinkBlock(rng, keys, values, prev, answer, draft)}\n<answer>${answer}</answer>`;
  }
  return rng.chance(0.05) ? `The running total is now ${answer}. <answer>${answer}</answer>` : `<answer>${answer}</answer>`;
}

/** Which turns lose their tag or get an invalid answer: a few turns per affected generation. */
function pickTurns(rng: Rng, p: number, T: number): Set<number> {
  const out = new Set<number>();
  if (!rng.chance(p)) return out;
  const n = rng.int(1, Math.min(3, T));
  for (let i = 0; i < n; i++) out.add(rng.int(1, T));
  return out;
}

function valuesOf(dict: Dictionary, keys: string[]): number[] {
  return keys.map((k) => {
    const v = dict[k];
    if (v === undefined) throw new Error(`key ${JSON.stringify(k)} is not in the dictionary`);
    return v;
  });
}

export function simulateDictSum(profile: SimProfile, header: PromptHeader, item: SimItem, rng: Rng): string | string[] {
  const dict = (item.input.dictionary ?? header.variant.dictionary) as Dictionary;
  const K = typeof header.variant.K === "number" ? header.variant.K : 1;
  const keys = item.input.keys as string[];
  const turns = turnKeys(keys, K);
  const turnOk = (n: number) => rng.chance(profile.stepReliability ** n);

  if (Array.isArray(item.input.shown)) {
    const shown = item.input.shown as number[];
    const rate = typeof item.input.induced_error_rate === "number" ? item.input.induced_error_rate : 0;
    const tk = turns[shown.length];
    const values = valuesOf(dict, tk);
    const prev = shown.length ? shown[shown.length - 1] : 0;
    const correct = prev + values.reduce((a, b) => a + b, 0);
    // a non-thinking model conditions on its (corrupted) history and gets worse; thinking does not
    const penalty = profile.thinking ? 0 : profile.selfConditioning * rate;
    const ok = turnOk(tk.length) && !rng.chance(penalty);
    const miss = rng.chance(profile.missingAnswer);
    const bad = rng.chance(profile.formatError);
    const answer = ok ? correct : slipTurn(rng, correct, values);
    if (miss) return rng.choice(NO_TAG);
    if (bad) return `<answer>${invalidAnswer(rng, answer)}</answer>`;
    return turnText(rng, profile, tk, values, prev, answer);
  }

  const T = turns.length;
  const missing = pickTurns(rng, profile.missingAnswer, T);
  const invalid = pickTurns(rng, profile.formatError, T);
  const answers: number[] = [];
  const texts: string[] = [];
  let own = 0;
  for (let t = 1; t <= T; t++) {
    const values = valuesOf(dict, turns[t - 1]);
    const correct = own + values.reduce((a, b) => a + b, 0);
    const answer = turnOk(values.length) ? correct : slipTurn(rng, correct, values);
    answers.push(answer);
    if (missing.has(t)) texts.push(rng.choice(NO_TAG));
    else if (invalid.has(t)) texts.push(`<answer>${invalidAnswer(rng, answer)}</answer>`);
    else texts.push(turnText(rng, profile, turns[t - 1], values, own, answer));
    own = answer;
  }

  if (header.variant.multi_turn !== false) return texts;

  // single turn: one list of running sums
  if (missing.size > 0) return `${rng.choice(NO_TAG)} There are too many turns to keep track of.`;
  const parts = answers.map((a, i) => (invalid.has(i + 1) ? invalidAnswer(rng, a) : String(a)));
  const list = parts.join(rng.chance(0.6) ? ", " : ",");
  const body = `<answer>${list}</answer>`;
  if (profile.thinking) {
    const last =
      answers.length > 1 ? `${answers[answers.length - 2]} plus ${answers[answers.length - 1] - answers[answers.length - 2]}` : "0";
    return `<think>Adding the values turn by turn. The last update is ${last}.</think>\n${body}`;
  }
  return body;
}
