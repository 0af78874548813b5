import type Database from "better-sqlite3";
import type { RawTx } from "./raw";

// The search index (migration 0018 on SQLite, 0019 on PostgreSQL): for each run, trigram
// (lib/store/search-terms.ts) and block of 2,048 consecutive generation ids, which of the
// block's generations hold the trigram — one row `SearchPosting (runId, block, trigram, ids)`. A load appends a block's rows once its
// generations are written: a run of 10,000 arith outputs holds ~5.4 million (output, trigram)
// pairs but only ~13,000 such rows, where FTS5 took each output's ~550 trigrams as words, and
// writing them was the largest single cost on the loader's thread (docs/performance.md, "Load").
// `ids` is a tag byte and then either
//   0: the generations' positions in the block, ascending, each as its gap to the one before
//      minus one (the first: its position), in one or two bytes (7 bits a byte, low first);
//   1: a bitset of the block's 2,048 positions (256 bytes), where that is smaller.
// This module encodes and writes the rows (lib/store/posting-builder.ts builds them);
// lib/store/search-candidates.ts reads them for a search.

const BLOCK_BITS = 11;
export const BLOCK = 1 << BLOCK_BITS;
export const BITSET_BYTES = BLOCK / 8;
const TAG_GAPS = 0;
const TAG_BITSET = 1;

/** One row of the index: run, trigram, block, the block's generations holding it. */
export type PostingRow = [runId: number, trigram: number, block: number, ids: Buffer];

export const BITSET_WORDS = BITSET_BYTES / 4;
/** Where a value's gaps are written before their size is known: two bytes per position at most. */
const gapScratch = new Uint8Array(1 + 2 * BLOCK);

/**
 * The index's value of the positions set in `words[at..at + 64)`, a bit per position of a
 * block (position 32j + k is bit k of word j). One pass: the gaps are written as they are found
 * and given up for the bitset as soon as they are larger (docs/performance.md, "Load").
 */
export function encodeWords(words: Uint32Array, at: number): Buffer {
  const gaps = gapScratch;
  let p = 1;
  for (let j = 0, prev = -1; j < BITSET_WORDS; j++) {
    for (let w = words[at + j]; w !== 0; w &= w - 1) {
      const position = (j << 5) | (31 - Math.clz32(w & -w));
      const gap = position - prev - 1;
      if (gap < 128) gaps[p++] = gap;
      else {
        gaps[p++] = 0x80 | (gap & 0x7f);
        gaps[p++] = gap >>> 7;
      }
      prev = position;
    }
    if (p > 1 + BITSET_BYTES) {
      const out = Buffer.allocUnsafe(1 + BITSET_BYTES);
      out[0] = TAG_BITSET;
      for (let i = 0; i < BITSET_WORDS; i++) {
        const w = words[at + i];
        out[1 + 4 * i] = w;
        out[2 + 4 * i] = w >>> 8;
        out[3 + 4 * i] = w >>> 16;
        out[4 + 4 * i] = w >>> 24;
      }
      return out;
    }
  }
  const out = Buffer.allocUnsafe(p);
  gaps[0] = TAG_GAPS;
  out.set(gaps.subarray(0, p));
  return out;
}

/** Sets in `bits` (256 bytes, a bit per position) the positions a stored value holds. Throws on a damaged value. */
export function decodeInto(value: Uint8Array, bits: Uint8Array): void {
  if (value[0] === TAG_BITSET && value.length === 1 + BITSET_BYTES) {
    for (let i = 0; i < BITSET_BYTES; i++) bits[i] |= value[i + 1];
    return;
  }
  if (value[0] !== TAG_GAPS) throw new Error("search index: damaged posting");
  for (let p = 1, at = -1; p < value.length;) {
    let gap = value[p++];
    if (gap & 0x80) {
      if (p === value.length) throw new Error("search index: damaged posting");
      gap = (gap & 0x7f) | (value[p++] << 7);
    }
    at += gap + 1;
    if (at >= BLOCK) throw new Error("search index: damaged posting");
    bits[at >>> 3] |= 1 << (at & 7);
  }
}

/** The union of two stored values of one row (an index row written twice), as the index stores it. */
function mergePostings(a: Uint8Array, b: Uint8Array): Buffer {
  const bits = new Uint8Array(BITSET_BYTES);
  if (a.length > 0) decodeInto(a, bits);
  if (b.length > 0) decodeInto(b, bits);
  const words = new Uint32Array(BITSET_WORDS);
  for (let j = 0; j < BITSET_WORDS; j++)
    words[j] = bits[4 * j] | (bits[4 * j + 1] << 8) | (bits[4 * j + 2] << 16) | (bits[4 * j + 3] << 24);
  return encodeWords(words, 0);
}

/** Name of the SQL function (SQLite) that unites two stored values of the same row: an index row written twice. */
const MERGE_FUNCTION = "stepwise_postings_merge";

/** Registers stepwise_postings_merge(a, b) on a SQLite connection. */
export function registerPostingsFunction(db: Database.Database): void {
  db.function(MERGE_FUNCTION, { deterministic: true }, (a: unknown, b: unknown) =>
    mergePostings(a instanceof Uint8Array ? a : new Uint8Array(0), b instanceof Uint8Array ? b : new Uint8Array(0)),
  );
}

const WRITE_CHUNK = 200;
/** The first key of PostgreSQL's advisory lock on a run's index rows (the second: the run's id). */
const POSTINGS_LOCK = 7150315;

/**
 * Writes index rows; a row already there (a block written in parts) gets the union of both.
 * `between` runs after each statement (the server's loads give its event loop a turn there).
 */
export async function writePostings(tx: RawTx, rows: readonly PostingRow[], between?: () => Promise<void>): Promise<void> {
  // PostgreSQL: one writer of a run's rows at a time (`stepwise run` stores generations in
  // concurrent transactions; two merging the same rows in different orders would deadlock).
  // SQLite has one writer anyway.
  if (tx.provider === "postgres" && rows.length > 0) await tx.exec(`SELECT pg_advisory_xact_lock(${POSTINGS_LOCK}, $1)`, [rows[0][0]]);
  for (let at = 0; at < rows.length; at += WRITE_CHUNK) {
    const chunk = rows.slice(at, at + WRITE_CHUNK);
    const tuples = chunk.map((_, k) => `($${4 * k + 1}, $${4 * k + 2}, $${4 * k + 3}, $${4 * k + 4})`).join(", ");
    const insert = `INSERT INTO "SearchPosting" ("runId", "trigram", "block", "ids") VALUES ${tuples}`;
    if (tx.provider === "sqlite")
      await tx.exec(
        `${insert} ON CONFLICT ("runId", "block", "trigram") DO UPDATE SET "ids" = ${MERGE_FUNCTION}("ids", excluded."ids")`,
        chunk.flat(),
      );
    else await mergeOnPostgres(tx, chunk, insert);
    await between?.();
  }
}

/**
 * Writes the index rows of a run that only this transaction writes rows of (a run a load has
 * just created), from a PostingBuilder that added its generations in ascending id order: a
 * (block, trigram) comes once unless its block is in `splitBlocks`, so the rows go in as they
 * are — on PostgreSQL by `COPY`, not by statements that look for a row already there — and
 * only a split block's take the way that unites them (docs/performance.md, "Load").
 */
export async function writeNewPostings(tx: RawTx, rows: readonly PostingRow[], splitBlocks: ReadonlySet<number>): Promise<void> {
  const whole = splitBlocks.size === 0 ? rows : rows.filter((r) => !splitBlocks.has(r[2]));
  if (whole.length > 0) await tx.insertRows("SearchPosting", POSTING_COLS, whole as PostingRow[]);
  if (whole.length < rows.length)
    await writePostings(
      tx,
      rows.filter((r) => splitBlocks.has(r[2])),
    );
}

const POSTING_COLS = ["runId", "trigram", "block", "ids"];

/**
 * PostgreSQL runs no JavaScript inside a statement: the rows already there (none in a bulk
 * load, most of a generation's in `stepwise run`) are read back, united here and written.
 */
async function mergeOnPostgres(tx: RawTx, chunk: PostingRow[], insert: string): Promise<void> {
  const added = await tx.query<{ trigram: number; block: number }>(
    `${insert} ON CONFLICT ("runId", "block", "trigram") DO NOTHING RETURNING "trigram", "block"`,
    chunk.flat(),
  );
  if (added.length === chunk.length) return;
  const isNew = new Set(added.map((r) => `${r.block}/${r.trigram}`));
  const taken = chunk.filter(([, trigram, block]) => !isNew.has(`${block}/${trigram}`));
  const keys = taken.map((_, k) => `($${3 * k + 1}::integer, $${3 * k + 2}::integer, $${3 * k + 3}::integer)`).join(", ");
  const stored = await tx.query<{ trigram: number; block: number; ids: Uint8Array }>(
    `SELECT "trigram", "block", "ids" FROM "SearchPosting" WHERE ("runId", "trigram", "block") IN (${keys}) FOR UPDATE`,
    taken.flatMap(([runId, trigram, block]) => [runId, trigram, block]),
  );
  const before = new Map(stored.map((r) => [`${r.block}/${r.trigram}`, r.ids]));
  const merged = taken.map(([runId, trigram, block, ids]): PostingRow => [
    runId,
    trigram,
    block,
    mergePostings(before.get(`${block}/${trigram}`)!, ids),
  ]);
  const values = merged
    .map((_, k) => `($${4 * k + 1}::integer, $${4 * k + 2}::integer, $${4 * k + 3}::integer, $${4 * k + 4}::bytea)`)
    .join(", ");
  await tx.exec(
    `UPDATE "SearchPosting" p SET "ids" = v."ids" FROM (VALUES ${values}) AS v("runId", "trigram", "block", "ids")
     WHERE p."runId" = v."runId" AND p."trigram" = v."trigram" AND p."block" = v."block"`,
    merged.flat(),
  );
}
