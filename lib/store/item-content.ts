import { hash } from "node:crypto";
import { compressRecord, decompressRecordText } from "./record-codec";
import type { RawTx } from "./raw";

// An item's input and reference trace as one compressed record (ItemContent.body), stored
// once however many runs share the item (the same dataset run by several models, a run
// loaded again): Item rows point at it by contentId, and a record goes when the last item
// using it does (dropUnusedContents). The record is the JSON text, compressed (lib/store/record-codec.ts)
//   [1, input, reference]   generic items: the reference is the file's data
//   [1, input]              the others: the loader recomputes the reference from the input,
//                           and each generation's step trace holds its values as `expected`
// (1.2 kB of JSON → 0.26 kB for a 50-step arith item); it is keyed by the first 16 bytes of
// the SHA-256 of that text. Every reader goes through decodeItemContent (docs/performance.md,
// "Store size").

const VERSION = 1;
/** A record never decompresses past this: a damaged one cannot exhaust memory. */
const MAX_INFLATED = 256 << 20;

export interface ItemContent {
  /** SHA-256 of the uncompressed record, first 16 bytes: the key runs share it by */
  hash: Buffer;
  body: Buffer;
}

/** The uncompressed text of the record of an item's input and (null: not kept) reference, given as JSON text. */
export function itemContentText(inputJson: string, referenceJson: string | null): string {
  return referenceJson === null ? `[${VERSION},${inputJson}]` : `[${VERSION},${inputJson},${referenceJson}]`;
}

/** The stored record (key and body) of a record's text. */
export function sealItemContent(text: string): ItemContent {
  return { hash: itemContentKey(text), body: compressRecord(text) };
}

const KEY_BYTES = 16;

/** The key of a record's text: the first 16 bytes of its SHA-256. */
export function itemContentKey(text: string): Buffer {
  // one call, not createHash/update/digest: ~2 µs less per item (docs/performance.md, "Load")
  return hash("sha256", text, "buffer").subarray(0, KEY_BYTES);
}

/** The record of an item's input and (null: not kept) reference, given as JSON text (as the writer serialised them). */
export function encodeItemContent(inputJson: string, referenceJson: string | null): ItemContent {
  return sealItemContent(itemContentText(inputJson, referenceJson));
}

/** The input and reference (null where not kept) of a record written by encodeItemContent. Throws on a damaged record. */
export function decodeItemContent(body: Uint8Array): { input: Record<string, unknown>; reference: unknown[] | null } {
  const parsed = JSON.parse(decompressRecordText(body, MAX_INFLATED)) as unknown;
  if (!Array.isArray(parsed) || parsed[0] !== VERSION || (parsed.length !== 2 && parsed.length !== 3))
    throw new Error("item content: unknown record layout");
  const [, input, reference = null] = parsed as [number, unknown, unknown];
  if (typeof input !== "object" || input === null || Array.isArray(input) || (reference !== null && !Array.isArray(reference)))
    throw new Error("item content: damaged record");
  return { input: input as Record<string, unknown>, reference: reference as unknown[] | null };
}

/**
 * Whether an item record keeps the reference: only where it is the file's own data (generic).
 * Elsewhere the loader recomputes it from the input, and export leaves it out.
 */
export const keepsReference = (benchmark: string): boolean => benchmark === "generic";

const PG_CHUNK = 1000;
const SQLITE_CHUNK = 250;

/**
 * Stores the records not stored yet and returns the id of each (in the given order). Inside
 * the load's transaction: a record another load is writing at the same moment makes this one
 * wait for it (PostgreSQL's ON CONFLICT), never a duplicate.
 */
export async function storeContents(tx: RawTx, contents: readonly ItemContent[]): Promise<number[]> {
  const byHash = new Map<string, ItemContent>();
  for (const c of contents) byHash.set(c.hash.toString("hex"), c);
  const ids = new Map<string, number>();
  const found = (rows: { id: number; hash: Uint8Array }[]) => {
    for (const r of rows) ids.set(Buffer.from(r.hash).toString("hex"), Number(r.id));
  };
  // The records a chunk already had (another run's items) are not returned by the insert: read them.
  const missingContents = (chunk: ItemContent[]) => chunk.filter((c) => !ids.has(c.hash.toString("hex")));
  const missing = (chunk: ItemContent[]) => missingContents(chunk).map((c) => c.hash);
  if (tx.provider === "sqlite") {
    // a statement or two per chunk, not one per record: the loader's thread is a load's slower one
    const all = [...byHash.values()];
    for (let i = 0; i < all.length; i += SQLITE_CHUNK) {
      const chunk = all.slice(i, i + SQLITE_CHUNK);
      const tuples = chunk.map((_, k) => `($${2 * k + 1}, $${2 * k + 2})`).join(", ");
      found(
        await tx.query<{ id: number; hash: Uint8Array }>(
          `INSERT INTO "ItemContent" ("hash", "body") VALUES ${tuples} ON CONFLICT ("hash") DO NOTHING RETURNING "id", "hash"`,
          chunk.flatMap((c) => [c.hash, c.body]),
        ),
      );
      const rest = missing(chunk);
      if (rest.length === 0) continue;
      const marks = rest.map((_, k) => `$${k + 1}`).join(", ");
      found(await tx.query<{ id: number; hash: Uint8Array }>(`SELECT "id", "hash" FROM "ItemContent" WHERE "hash" IN (${marks})`, rest));
    }
  } else {
    // sorted, so two loads sharing records (and a delete of them) lock them in the same order
    const all = [...byHash.keys()].sort();
    for (let i = 0; i < all.length; i += PG_CHUNK) {
      const chunk = all.slice(i, i + PG_CHUNK).map((h) => byHash.get(h)!);
      // The records other runs wrote are locked until this load commits, so that a delete of
      // their last run meanwhile keeps them (dropUnusedContents); one deleted between the insert
      // and the lock is written again.
      for (let todo = chunk; todo.length > 0; todo = missingContents(chunk)) {
        found(await insertPgContents(tx, todo));
        const rest = missing(chunk);
        if (rest.length === 0) break;
        found(
          await tx.query<{ id: number; hash: Buffer }>(
            `SELECT "id", "hash" FROM "ItemContent" WHERE "hash" = ANY($1::bytea[]) ORDER BY "hash" FOR KEY SHARE`,
            [rest],
          ),
        );
      }
    }
  }
  return contents.map((c) => {
    const id = ids.get(c.hash.toString("hex"));
    if (id === undefined) throw new Error("item content: a record was not stored");
    return id;
  });
}

/** Inserts the records not stored yet; returns the ids and keys of those it inserted. */
async function insertPgContents(tx: RawTx, chunk: readonly ItemContent[]): Promise<{ id: number; hash: Buffer }[]> {
  // The keys and the records each as one bytea parameter, which node-postgres sends as its
  // bytes, cut apart by the server; arrays of bytea go as text, every byte as hex, that the
  // server parsed a character at a time (~7% of its CPU in a load).
  const at: number[] = [];
  const len: number[] = [];
  let end = 0;
  for (const c of chunk) {
    if (c.hash.length !== KEY_BYTES) throw new Error("item content: a key of the wrong length");
    at.push(end);
    len.push(c.body.length);
    end += c.body.length;
  }
  return tx.query<{ id: number; hash: Buffer }>(
    `INSERT INTO "ItemContent" ("hash", "body")
     SELECT substring($1::bytea FROM o."n"::int * ${KEY_BYTES} - ${KEY_BYTES - 1} FOR ${KEY_BYTES}), substring($2::bytea FROM o."at" + 1 FOR o."len")
       FROM unnest($3::int[], $4::int[]) WITH ORDINALITY AS o("at", "len", "n") ORDER BY o."n"
     ON CONFLICT ("hash") DO NOTHING RETURNING "id", "hash"`,
    [Buffer.concat(chunk.map((c) => c.hash)), Buffer.concat(chunk.map((c) => c.body)), at, len],
  );
}

/** The content ids a run's items use: the candidates to drop once the run is gone. */
export async function contentsOfRun(tx: RawTx, runId: number): Promise<number[]> {
  const rows = await tx.query<{ id: number }>(`SELECT DISTINCT "contentId" AS "id" FROM "Item" WHERE "runId" = $1`, [runId]);
  return rows.map((r) => Number(r.id));
}

/** Records dropped per statement on the server's store (dropUnusedContents with a `turn`). */
const DROP_SLICE = 1000;

/**
 * Drops the records among `ids` that no item uses any more (after their run was deleted or
 * replaced). A record another transaction has just started to use stays. On PostgreSQL that
 * transaction holds a lock on it (storeContents): the candidates are locked first, in the
 * order loads lock them, which waits for such a load to commit, and the delete that follows
 * (a statement of its own, so it sees what that load committed) keeps the records its items
 * use. Every candidate is locked, the ones still in use too: locking only those that look
 * unused would let a record go whose last other user was deleted meanwhile and that a third
 * transaction had just locked. SQLite's writers take turns, and its items keep their foreign key.
 */
export async function dropUnusedContents(tx: RawTx, ids: readonly number[], turn?: () => Promise<void>): Promise<number> {
  if (ids.length === 0) return 0;
  const unused = `NOT EXISTS (SELECT 1 FROM "Item" i WHERE i."contentId" = "ItemContent"."id")`;
  if (tx.provider === "postgres") {
    await tx.query(`SELECT "id" FROM "ItemContent" WHERE "id" = ANY($1::int[]) ORDER BY "hash" FOR UPDATE`, [ids]);
    return tx.exec(`DELETE FROM "ItemContent" WHERE "id" = ANY($1::int[]) AND ${unused}`, [ids]);
  }
  // `turn` (the server's store): DROP_SLICE records a statement, a turn of the event loop after
  // each (all in one took ~60 ms at 30,000 items, ~2 µs a record)
  const slice = turn ? DROP_SLICE : ids.length;
  let dropped = 0;
  for (let i = 0; i < ids.length; i += slice) {
    const part = JSON.stringify(ids.slice(i, i + slice));
    dropped += await tx.exec(`DELETE FROM "ItemContent" WHERE "id" IN (SELECT "value" FROM json_each($1)) AND ${unused}`, [part]);
    await turn?.();
  }
  return dropped;
}
