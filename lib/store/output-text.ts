import type { Provider } from "../env";
import type Database from "better-sqlite3";
import { compressRecord, decompressRecordText } from "./record-codec";

// The model's output on SQLite is stored compressed (Generation.outputDeflated, migration 0015;
// the column's name is from when the record was raw deflate, lib/store/record-codec.ts) with
// `output` left empty: it is two thirds of a native file, and compression takes it to ~0.36
// of its bytes. The search index (trigram postings, lib/store/search-postings.ts) gets the text
// when the row is written; SQL that needs the text (migrations) calls
// stepwise_output(), and the search's exact re-check stepwise_output_contains(), which checks
// the text in JavaScript rather than handing it back to SQLite for LIKE; both are registered on
// every SQLite connection the app opens. PostgreSQL keeps `output` as text (TOAST
// compresses it; a search checks it in SQL, lib/store/dialect.ts); outputDeflated is null
// there.

/** An output record never decompresses past this: a damaged one cannot exhaust memory. */
const MAX_OUTPUT = 256 << 20;

/** Name of the SQL function (SQLite) that returns a row's output text from its two columns. */
const OUTPUT_FUNCTION = "stepwise_output";

/** Name of the SQL function (SQLite): 1 when a row's output, from its two columns, contains a text (ASCII letters folded). */
export const OUTPUT_CONTAINS_FUNCTION = "stepwise_output_contains";

/** ASCII letters folded to lower case, nothing else (the case folding search applies on both stores). */
export function foldAscii(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** Whether a store keeps outputs compressed (SQLite) rather than as text its server compresses (PostgreSQL's TOAST). */
export const compressesOutputs = (provider: Provider): boolean => provider === "sqlite";

/** The compressed record of an output, or null when there is nothing to compress (''). */
export function compressOutput(text: string): Buffer | null {
  return text === "" ? null : compressRecord(text);
}

/** A generation's output text from its stored columns (either store). */
export function storedOutput(output: string, deflated: Uint8Array | null | undefined): string {
  return deflated ? decompressRecordText(deflated, MAX_OUTPUT) : output;
}

/**
 * A test that a text contains `folded` (a search text already ASCII-folded), ignoring the case
 * of ASCII letters and only theirs. For an ASCII search text a case-insensitive RegExp without
 * the `u` flag is that same test — it never folds a non-ASCII character to an ASCII one (ſ stays
 * apart from s, K from k) — and ~10× faster than folding each text first.
 */
function matcher(folded: string): (text: string) => boolean {
  if (!/[a-z]/.test(folded)) return (text) => text.includes(folded);
  if (/^[\x00-\x7f]*$/.test(folded)) {
    const re = new RegExp(folded.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"), "i");
    return (text) => re.test(text);
  }
  return (text) => foldAscii(text).includes(folded);
}

// One search calls the check for hundreds of rows with the same text: its matcher is kept.
let last = { folded: "", test: matcher("") };

function containsFolded(text: string, folded: string): boolean {
  if (last.folded !== folded) last = { folded, test: matcher(folded) };
  return last.test(text);
}

/** Registers stepwise_output(output, outputDeflated) and stepwise_output_contains(output, outputDeflated, foldedText) on a SQLite connection. */
export function registerOutputFunction(db: Database.Database): void {
  const text = (output: unknown, deflated: unknown) =>
    storedOutput(output === null ? "" : String(output), deflated instanceof Uint8Array ? deflated : null);
  db.function(OUTPUT_FUNCTION, { deterministic: true }, text);
  db.function(OUTPUT_CONTAINS_FUNCTION, { deterministic: true }, (output: unknown, deflated: unknown, folded: unknown) =>
    containsFolded(text(output, deflated), String(folded)) ? 1 : 0,
  );
}
