import type { Store } from "../db";
import { BITSET_BYTES, BLOCK, decodeInto } from "./search-postings";
import { queryTrigrams } from "./search-terms";
import { join, sql } from "./sql";

// A search's candidates from the index (lib/store/search-postings.ts writes it): the run's rows
// for the text's trigrams, intersected block by block, to be re-checked against the text.

/**
 * Ids of the generations whose rows (those of a run, for trigrams `trigrams`, distinct) hold
 * every one of the trigrams, ascending; null when there are more than `cap`.
 */
export function postingCandidates(rows: readonly PostingRead[], trigrams: number, cap: number): number[] | null {
  const blocks = new Map<number, { seen: number; bits: Uint8Array }>();
  const scratch = new Uint8Array(BITSET_BYTES);
  for (const row of rows) {
    const block = Number(row.block);
    const entry = blocks.get(block);
    if (!entry) {
      const bits = new Uint8Array(BITSET_BYTES);
      decodeInto(row.ids, bits);
      blocks.set(block, { seen: 1, bits });
      continue;
    }
    scratch.fill(0);
    decodeInto(row.ids, scratch);
    for (let i = 0; i < BITSET_BYTES; i++) entry.bits[i] &= scratch[i];
    entry.seen++;
  }
  const ids: number[] = [];
  for (const block of [...blocks.keys()].sort((a, b) => a - b)) {
    const { seen, bits } = blocks.get(block)!;
    if (seen !== trigrams) continue;
    for (let i = 0; i < BITSET_BYTES; i++)
      for (let b = bits[i], k = 0; b; b >>>= 1, k++) {
        if ((b & 1) === 0) continue;
        if (ids.length === cap) return null;
        ids.push(block * BLOCK + (i << 3) + k);
      }
  }
  return ids;
}

/** Rows of the index as a search reads them. */
export interface PostingRead {
  block: unknown;
  ids: Uint8Array;
}

/**
 * postingCandidates over blocks `first`…`last`, read a window of blocks at a time (4, 8, …, 64)
 * and stopping as soon as there are more than `cap`: a common text (a search that will scan
 * instead) reads a few blocks' rows, not all of the run's.
 */
export async function windowedCandidates(
  first: number,
  last: number,
  trigrams: number,
  cap: number,
  read: (fromBlock: number, toBlock: number) => Promise<PostingRead[]>,
): Promise<number[] | null> {
  const ids: number[] = [];
  for (let from = first, width = 4; from <= last; from += width, width = Math.min(64, width * 2)) {
    const found = postingCandidates(await read(from, Math.min(last, from + width - 1)), trigrams, cap - ids.length);
    if (found === null) return null;
    for (const id of found) ids.push(id);
  }
  return ids;
}

// Prisma binds each id as a parameter and SQLite statements take at most 999 of them.
const CANDIDATES = 900;

/**
 * Ids of run `runId`'s generations whose output may contain `q` (case-insensitively), to be
 * re-checked by the search's condition (lib/store/dialect.ts); null when the index cannot narrow
 * it: `q` under three characters, over 900 candidates, a run not yet indexed. Read a window of
 * blocks at a time.
 */
export async function outputCandidates(store: Store, runId: number, q: string): Promise<number[] | null> {
  const trigrams = queryTrigrams(q);
  if (trigrams === null) return null;
  // A run loaded moments ago may still wait for its index (lib/store/search-index.ts); the
  // run's first and last blocks are two seeks of the key (runId, block, trigram).
  const [range] = await store.read<{ searchIndexed: unknown; first: unknown; last: unknown }>(
    sql`SELECT r."searchIndexed",
               (SELECT "block" FROM "SearchPosting" WHERE "runId" = r."id" ORDER BY "block" LIMIT 1) AS "first",
               (SELECT "block" FROM "SearchPosting" WHERE "runId" = r."id" ORDER BY "block" DESC LIMIT 1) AS "last"
        FROM "Run" r WHERE r."id" = ${runId}`,
    { planOnce: true },
  );
  if (!range?.searchIndexed) return null;
  if (range.first === null || range.first === undefined) return [];
  // blocks and trigrams both listed, so that the store seeks each pair (a range of blocks would read every row in it)
  return windowedCandidates(Number(range.first), Number(range.last), trigrams.length, CANDIDATES, (from, to) =>
    store.read<PostingRead>(
      sql`SELECT "block", "ids" FROM "SearchPosting"
          WHERE "runId" = ${runId} AND "block" IN (${join(Array.from({ length: to - from + 1 }, (_, k) => from + k))})
            AND "trigram" IN (${join(trigrams)})`,
    ),
  );
}
