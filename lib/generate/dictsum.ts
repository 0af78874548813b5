// dict-sum items (SPEC §2.2): a shared dictionary of five-letter pseudo-words → integers,
// key sequences, and self-conditioning items with a (possibly corrupted) shown history.

import { createRng, hashSeed, type Rng } from "./rng";

export type Dictionary = Record<string, number>;

export interface DictSumItem {
  id: string;
  length: number; // L, number of keys
  input: { keys: string[] };
}

export interface SelfConditioningItem {
  id: string;
  length: number; // target_turn × K keys
  input: { keys: string[]; shown: number[]; induced_error_rate: number };
}

// Letters chosen so words read as pronounceable English-like nonsense ("bramo", "tesul").
const ONSETS = ["b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z"];
const CLUSTERS = ["br", "cl", "cr", "dr", "fl", "fr", "gl", "gr", "pl", "pr", "sk", "sl", "sn", "sp", "st", "tr", "ch", "sh", "th"];
const VOWELS = ["a", "e", "i", "o", "u"];
const CODAS = ["b", "d", "g", "k", "l", "m", "n", "p", "r", "s", "t", "x"];
const MIDS = ["nd", "nt", "rt", "st", "mp", "lk", "rd", "ng", "ll", "ss"];

/** Patterns that all yield exactly five letters. */
const PATTERNS: ((r: Rng) => string)[] = [
  (r) => r.choice(ONSETS) + r.choice(VOWELS) + r.choice(ONSETS) + r.choice(VOWELS) + r.choice(CODAS), // CVCVC
  (r) => r.choice(CLUSTERS) + r.choice(VOWELS) + r.choice(ONSETS) + r.choice(VOWELS), // CCVCV
  (r) => r.choice(ONSETS) + r.choice(VOWELS) + r.choice(MIDS) + r.choice(VOWELS), // CVCCV
  (r) => r.choice(CLUSTERS) + r.choice(VOWELS) + r.choice(MIDS), // CCVCC
  (r) => r.choice(VOWELS) + r.choice(MIDS) + r.choice(VOWELS) + r.choice(CODAS), // VCCVC
];

/** The most words we will invent; far below the pattern space, so drawing stays fast. */
export const MAX_DICT_SIZE = 20000;

export function pseudoWord(rng: Rng): string {
  return rng.choice(PATTERNS)(rng);
}

/** Distinct pseudo-words with uniform integer values, insertion-ordered (JSON keeps the order). */
export function makeDictionary(seed: number, size: number, valueRange: [number, number]): Dictionary {
  if (!Number.isInteger(size) || size < 1 || size > MAX_DICT_SIZE) {
    throw new RangeError(`dictionary size must be an integer in [1, ${MAX_DICT_SIZE}], got ${size}`);
  }
  const [lo, hi] = valueRange;
  const rng = createRng(hashSeed(seed, "dict-sum", "dictionary", size, lo, hi));
  const dict: Dictionary = {};
  let count = 0;
  while (count < size) {
    const w = pseudoWord(rng);
    if (w in dict) continue;
    dict[w] = rng.int(lo, hi);
    count++;
  }
  return dict;
}

export function turnCount(length: number, K: number): number {
  return Math.ceil(length / K);
}

/** Running sum after every key (the reference trace). */
export function runningSums(keys: readonly string[], dict: Dictionary): number[] {
  const out: number[] = [];
  let s = 0;
  for (const k of keys) {
    const v = dict[k];
    if (v === undefined) throw new Error(`key ${JSON.stringify(k)} is not in the dictionary`);
    s += v;
    out.push(s);
  }
  return out;
}

/** Keys of each turn: turn t holds keys (t−1)K .. min(tK, L) − 1. */
export function turnKeys(keys: readonly string[], K: number): string[][] {
  const turns: string[][] = [];
  for (let i = 0; i < keys.length; i += K) turns.push(keys.slice(i, i + K));
  return turns;
}

/** Reference answer of every turn: the running sum after step min(tK, L). */
export function turnSums(keys: readonly string[], dict: Dictionary, K: number): number[] {
  const sums = runningSums(keys, dict);
  const out: number[] = [];
  for (let t = 1; t <= turnCount(keys.length, K); t++) out.push(sums[Math.min(t * K, keys.length) - 1]);
  return out;
}

export interface DictSumSettings {
  dictSize: number;
  valueRange: [number, number];
  K: number;
  multiTurn: boolean;
}

/** e.g. `dict100-k1-multi`, `dict100-k2-single`, the convention of the example files. */
export function dictVariantName(s: DictSumSettings): string {
  const range = s.valueRange[0] === -99 && s.valueRange[1] === 99 ? "" : `-v${s.valueRange[0]}_${s.valueRange[1]}`;
  return `dict${s.dictSize}${range}-k${s.K}-${s.multiTurn ? "multi" : "single"}`;
}

export function selfConditioningVariantName(s: Pick<DictSumSettings, "dictSize" | "valueRange" | "K">, targetTurn: number): string {
  const range = s.valueRange[0] === -99 && s.valueRange[1] === 99 ? "" : `-v${s.valueRange[0]}_${s.valueRange[1]}`;
  const dict = s.dictSize === 100 ? "" : `-dict${s.dictSize}`;
  return `selfcond${dict}${range}-k${s.K}-t${targetTurn}`;
}

function drawKeys(rng: Rng, words: readonly string[], n: number): string[] {
  const keys: string[] = new Array(n);
  for (let i = 0; i < n; i++) keys[i] = rng.choice(words);
  return keys;
}

export interface DictSumGridOptions {
  seed: number;
  lengths: number[];
  itemsPerLength: number;
  dictionary: Dictionary;
  K: number;
  multiTurn: boolean;
}

export function* dictSumItems(opts: DictSumGridOptions): Generator<DictSumItem> {
  const words = Object.keys(opts.dictionary);
  const tag = `k${opts.K}${opts.multiTurn ? "" : "s"}`;
  let index = 0;
  for (const length of opts.lengths) {
    for (let k = 0; k < opts.itemsPerLength; k++) {
      index++;
      // multi- and single-turn share key sequences, so their runs compare item by item
      const rng = createRng(hashSeed(opts.seed, "dict-sum", "keys", words.length, length, k));
      yield { id: `dict-${tag}-${String(index).padStart(4, "0")}`, length, input: { keys: drawKeys(rng, words, length) } };
    }
  }
}

/**
 * Corrupt each history value independently with probability `rate` by a non-zero offset
 * in ±[1, 50]: a wrong sum the model "said", detached from the true sum so it stays
 * visibly wrong (the example files' convention).
 */
export function corruptHistory(rng: Rng, sums: readonly number[], rate: number): number[] {
  return sums.map((s) => {
    if (!rng.chance(rate)) return s;
    const off = rng.int(1, 50);
    return rng.chance(0.5) ? s + off : s - off;
  });
}

export interface SelfConditioningOptions {
  seed: number;
  dictionary: Dictionary;
  K: number;
  targetTurn: number;
  rates: number[];
  itemsPerRate: number;
}

function rateTag(rate: number): string {
  return `r${rate}`;
}

/**
 * One block of items per rate. Item k has the same keys at every rate (only the corruption
 * differs), so the sweep is a paired comparison.
 */
export function* selfConditioningItems(opts: SelfConditioningOptions): Generator<SelfConditioningItem> {
  const words = Object.keys(opts.dictionary);
  const length = opts.targetTurn * opts.K;
  for (const rate of opts.rates) {
    for (let k = 0; k < opts.itemsPerRate; k++) {
      const keys = drawKeys(createRng(hashSeed(opts.seed, "self-conditioning", "keys", words.length, length, k)), words, length);
      const truth = turnSums(keys, opts.dictionary, opts.K).slice(0, opts.targetTurn - 1);
      const shown = corruptHistory(createRng(hashSeed(opts.seed, "self-conditioning", "shown", rate, k)), truth, rate);
      yield {
        id: `sc-${rateTag(rate)}-${String(k + 1).padStart(4, "0")}`,
        length,
        input: { keys, shown, induced_error_rate: rate },
      };
    }
  }
}
