import type Database from "better-sqlite3";

// What SQLite's search index holds for an output (migration 0017): not the text, which FTS5's
// trigram tokenizer cut into one token per character (~2,500 for an arith output, most of them
// repeats), but the output's distinct trigrams, each spelled as one five-letter word, and a word
// naming its run; FTS5's `ascii` tokenizer then reads ~550 words. A detail=none index records
// only which rows hold a word, so the repeats it was given cost time and bought nothing
// (docs/performance.md, "Load"). The search asks for rows holding every trigram of its text and
// its run's word, then re-checks the candidates exactly (lib/store/dialect.ts), so a trigram may
// stand for several (all that matters is that the same text always gives the same words):
//   - ASCII letters fold to lower case (the search ignores their case, and only theirs);
//   - control characters are one class; other ASCII characters are themselves;
//   - any other UTF-16 unit is hashed into one of 32 classes.
// 128 classes, so a trigram is a 21-bit number, written as five base-32 digits.

const CLASSES = 128;
const ALPHABET = "0123456789abcdefghijklmnopqrstuv";
const DIGIT = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const SPACE = 32;

const ASCII_CLASS = new Uint8Array(128);
for (let u = 0; u < 128; u++) {
  const folded = u >= 65 && u <= 90 ? u + 32 : u;
  ASCII_CLASS[u] = folded >= 32 && folded < 127 ? folded - 31 : 0;
}

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

/** Distinct trigram words of `text` as "w1 w2 …" (empty below three units), and how many. */
function trigramWords(text: string): { words: string; count: number } {
  const n = text.length;
  if (n < 3) return { words: "", count: 0 };
  if (set.length < n) set = new Int32Array(n);
  if (out.length < n * 6) out = Buffer.allocUnsafe(n * 6);
  let count = 0;
  let p = 0;
  let a = classOf(text.charCodeAt(0));
  let b = classOf(text.charCodeAt(1));
  for (let i = 2; i < n; i++) {
    const c = classOf(text.charCodeAt(i));
    const code = (a << 14) | (b << 7) | c;
    const word = code >>> 5;
    const bit = 1 << (code & 31);
    if ((seen[word] & bit) === 0) {
      seen[word] |= bit;
      set[count++] = code;
      out[p] = DIGIT[code >>> 20];
      out[p + 1] = DIGIT[(code >>> 15) & 31];
      out[p + 2] = DIGIT[(code >>> 10) & 31];
      out[p + 3] = DIGIT[(code >>> 5) & 31];
      out[p + 4] = DIGIT[code & 31];
      out[p + 5] = SPACE;
      p += 6;
    }
    a = b;
    b = c;
  }
  for (let k = 0; k < count; k++) seen[set[k] >>> 5] &= ~(1 << (set[k] & 31));
  return { words: out.toString("latin1", 0, Math.max(0, p - 1)), count };
}

/** What the search index holds for one output of run `runId`. */
export function searchTerms(runId: number, text: string): string {
  return termsOf(runId, trigramWords(text).words);
}

/**
 * An output's trigram words without its run's word: a load builds them on the analysis thread,
 * before the run has an id, and the writer adds the word (termsOf).
 */
export function outputWords(text: string): string {
  return trigramWords(text).words;
}

/** searchTerms of an output whose words are `words` (outputWords). */
export function termsOf(runId: number, words: string): string {
  return words === "" ? runWord(runId) : `${runWord(runId)} ${words}`;
}

// Trigrams of a long text asked of the index: any of them narrows, the re-check is exact.
const MAX_TRIGRAMS = 32;

/**
 * The FTS5 query for run `runId`'s rows that may contain `q`: its run's word and every
 * trigram of `q` (at most 32 of them, spread over it). Null when `q` is shorter than three
 * UTF-16 units: the index cannot narrow it.
 */
export function searchQuery(runId: number, q: string): string | null {
  const { words, count } = trigramWords(q);
  if (count === 0) return null;
  let list = words.split(" ");
  if (list.length > MAX_TRIGRAMS) {
    const step = Math.ceil(list.length / MAX_TRIGRAMS);
    list = list.filter((_, i) => i % step === 0);
  }
  return [runWord(runId), ...list].map((w) => `"${w}"`).join(" AND ");
}

/** Name of the SQL function (SQLite) giving searchTerms(runId, text); migrations index stored runs with it. */
export const SEARCH_TERMS_FUNCTION = "stepwise_search_terms";

/** Registers stepwise_search_terms(runId, text) on a SQLite connection. */
export function registerSearchTermsFunction(db: Database.Database): void {
  db.function(SEARCH_TERMS_FUNCTION, { deterministic: true }, (runId: unknown, text: unknown) =>
    searchTerms(Number(runId), text === null ? "" : String(text)),
  );
}
