import type Database from "better-sqlite3";

// The trigrams SQLite's search index holds for an output (lib/store/search-postings.ts): the
// output's distinct trigrams, each a 21-bit number. The search asks for the outputs holding
// every trigram of its text, then re-checks the candidates exactly (lib/store/dialect.ts), so a
// trigram may stand for several (all that matters is that the same text always gives the same
// trigrams):
//   - ASCII letters fold to lower case (the search ignores their case, and only theirs);
//   - control characters are one class; other ASCII characters are themselves;
//   - any other UTF-16 unit is hashed into one of 32 classes.
// 128 classes, so a trigram is a 21-bit number (migration 0017's FTS5 index, which 0018 replaced,
// held each as a word of five base-32 digits and the run as a word `z<id>`).

const CLASSES = 128;
const ALPHABET = "0123456789abcdefghijklmnopqrstuv";
const DIGIT = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const SPACE = 32;

const ASCII_CLASS = new Uint8Array(128);
for (let u = 0; u < 128; u++) {
  const folded = u >= 65 && u <= 90 ? u + 32 : u;
  ASCII_CLASS[u] = folded >= 32 && folded < 127 ? folded - 31 : 0;
}

/** The class of a UTF-16 unit; a trigram is three classes, `(a << 14) | (b << 7) | c`. */
function classOf(unit: number): number {
  return unit < 128 ? ASCII_CLASS[unit] : 96 + (Math.imul(unit, 0x9e3779b1) >>> 27);
}

/** The word a run's rows carry: `z` is not a base-32 digit, so no trigram word equals it. */
function runWord(runId: number): string {
  return `z${runId}`;
}

// Scratch space, reused: a bit per possible trigram (256 kB) and the trigrams a text set.
const seen = new Uint32Array((CLASSES * CLASSES * CLASSES) / 32);
let set = new Int32Array(4096);
let out = Buffer.allocUnsafe(1 << 16);

/** Puts the distinct trigrams of `text`, in order of first appearance, in `set`; returns how many. */
function distinctTrigrams(text: string): number {
  const n = text.length;
  if (n < 3) return 0;
  if (set.length < n) set = new Int32Array(n);
  let count = 0;
  let a = classOf(text.charCodeAt(0));
  let b = classOf(text.charCodeAt(1));
  for (let i = 2; i < n; i++) {
    const c = classOf(text.charCodeAt(i));
    const code = (a << 14) | (b << 7) | c;
    const word = code >>> 5;
    const had = seen[word];
    // without a branch: whether a trigram is new is unpredictable (~1 in 4.5 of an output's
    // are), and the branch cost a third of the loop's time (docs/performance.md, "Load")
    seen[word] = had | (1 << (code & 31));
    set[count] = code;
    count += ((had >>> (code & 31)) & 1) ^ 1;
    a = b;
    b = c;
  }
  // every bit set was this text's: its words go back to zero whole
  for (let k = 0; k < count; k++) seen[set[k] >>> 5] = 0;
  return count;
}

/** Distinct trigram words of `text` as "w1 w2 …" (empty below three units), and how many. */
function trigramWords(text: string): { words: string; count: number } {
  const count = distinctTrigrams(text);
  if (out.length < count * 6) out = Buffer.allocUnsafe(count * 6);
  let p = 0;
  for (let k = 0; k < count; k++) {
    const code = set[k];
    out[p] = DIGIT[code >>> 20];
    out[p + 1] = DIGIT[(code >>> 15) & 31];
    out[p + 2] = DIGIT[(code >>> 10) & 31];
    out[p + 3] = DIGIT[(code >>> 5) & 31];
    out[p + 4] = DIGIT[code & 31];
    out[p + 5] = SPACE;
    p += 6;
  }
  return { words: out.toString("latin1", 0, Math.max(0, p - 1)), count };
}

/** The distinct trigrams of `text` as `codes[0..count)`, in order of first appearance, in scratch space the next call reuses. */
export function scratchTrigrams(text: string): { codes: Int32Array; count: number } {
  const count = distinctTrigrams(text); // first: it may replace `set` with a larger one
  return { codes: set, count };
}

/** The distinct trigrams of `text` (21-bit numbers, in order of first appearance). */
export function trigramCodes(text: string): Int32Array {
  const count = distinctTrigrams(text); // first: it may replace `set` with a larger one
  return set.slice(0, count);
}

/** What migration 0017's index held for one output of run `runId` (its SQL calls this; migration 0018 replaced that index). */
function searchTerms(runId: number, text: string): string {
  const words = trigramWords(text).words;
  return words === "" ? runWord(runId) : `${runWord(runId)} ${words}`;
}

// Trigrams of a long text asked of the index: any of them narrows, the re-check is exact.
const MAX_TRIGRAMS = 32;

/**
 * The trigrams to ask the search index for, for outputs that may contain `q`: every trigram of
 * `q` (at most 32 of them, spread over it), ascending. Null when `q` is shorter than three
 * UTF-16 units: the index cannot narrow it.
 */
export function queryTrigrams(q: string): number[] | null {
  let list = Array.from(trigramCodes(q));
  if (list.length === 0) return null;
  if (list.length > MAX_TRIGRAMS) {
    const step = Math.ceil(list.length / MAX_TRIGRAMS);
    list = list.filter((_, i) => i % step === 0);
  }
  return list.sort((a, b) => a - b);
}

/** Name of the SQL function (SQLite) of migration 0017, which built that index's rows with it. */
const SEARCH_TERMS_FUNCTION = "stepwise_search_terms";

/** Registers stepwise_search_terms(runId, text) on a SQLite connection: migration 0017 calls it on stores older than it. */
export function registerSearchTermsFunction(db: Database.Database): void {
  db.function(SEARCH_TERMS_FUNCTION, { deterministic: true }, (runId: unknown, text: unknown) =>
    searchTerms(Number(runId), text === null ? "" : String(text)),
  );
}
