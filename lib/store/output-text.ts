import type Database from "better-sqlite3";
import { inflateRawSync } from "node:zlib";
import { deflateExact } from "./deflate";

// The model's output on SQLite is stored deflated (Generation.outputDeflated, migration 0015)
// with `output` left empty: it is two thirds of a native file, and deflate takes it to ~0.36
// of its bytes. The search index (FTS5 trigram, contentless) gets the text when the row is
// written; SQL that needs the text (the search's exact re-check) calls stepwise_output(),
// registered on every SQLite connection the app opens. PostgreSQL keeps `output` as text
// (TOAST compresses it, and its pg_trgm index reads the column itself); outputDeflated is
// null there.

/** Name of the SQL function (SQLite) that returns a row's output text from its two columns. */
export const OUTPUT_FUNCTION = "stepwise_output";

/** The deflated record of an output, or null when there is nothing to compress (''). */
export function deflateOutput(text: string): Buffer | null {
  return text === "" ? null : deflateExact(text);
}

/** A generation's output text from its stored columns (either store). */
export function storedOutput(output: string, deflated: Uint8Array | null | undefined): string {
  return deflated ? inflateRawSync(deflated).toString("utf8") : output;
}

/** Registers stepwise_output(output, outputDeflated) on a SQLite connection. */
export function registerOutputFunction(db: Database.Database): void {
  db.function(OUTPUT_FUNCTION, { deterministic: true }, (output: unknown, deflated: unknown) =>
    storedOutput(output === null ? "" : String(output), deflated instanceof Uint8Array ? deflated : null),
  );
}
