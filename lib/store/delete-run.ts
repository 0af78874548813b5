import { contentsOfRun, dropUnusedContents } from "./item-content";
import type { RawDb, RawTx } from "./raw";

// Deleting a run: `stepwise delete --run KEY` and the admins' delete on the run page.

const DELETE_SLICE = 250;

/** A turn of the event loop, for the server's long writes (see RunWriter). */
export const giveTurn = () => new Promise<void>((r) => setImmediate(r));

/** Blocks of a run's search-index rows deleted per statement (a block: 2,048 generations; lib/store/search-postings.ts). */
const POSTING_BLOCKS_PER_SLICE = 2;

/**
 * A SQLite run's search-index rows POSTING_BLOCKS_PER_SLICE blocks at a time (a range of their
 * key; Run_search_delete, migration 0018, then finds none left), then its generations and its
 * items DELETE_SLICE at a time, with a turn of the event loop after each: for the server's
 * store, whose thread also answers requests (deleted by the run's cascade in one statement,
 * 30,000 generations held it for ~1 s; the search-index rows, ~0.5 ms a block, in one, ~0.2 s
 * at 800,000 items). Returns the content ids its items used, gathered as they go (read
 * beforehand in one statement: ~40 ms at 30,000 items). What is left (the run's aggregates)
 * goes with the run.
 */
export async function deleteRowsInSlices(tx: RawTx, runId: number): Promise<number[]> {
  const [blocks] = await tx.query<{ first: number | null; last: number | null }>(
    `SELECT MIN("block") AS "first", MAX("block") AS "last" FROM "SearchPosting" WHERE "runId" = $1`,
    [runId],
  );
  for (let b = blocks.first ?? 0; blocks.last !== null && b <= blocks.last; b += POSTING_BLOCKS_PER_SLICE) {
    await tx.exec(`DELETE FROM "SearchPosting" WHERE "runId" = $1 AND "block" >= $2 AND "block" < $3`, [
      runId,
      b,
      b + POSTING_BLOCKS_PER_SLICE,
    ]);
    await giveTurn();
  }
  const slice = (table: string) =>
    `DELETE FROM "${table}" WHERE "id" IN (SELECT "id" FROM "${table}" WHERE "runId" = $1 LIMIT ${DELETE_SLICE})`;
  while ((await tx.exec(slice("Generation"), [runId])) > 0) await giveTurn();
  const contents = new Set<number>();
  for (;;) {
    const rows = await tx.query<{ contentId: number }>(`${slice("Item")} RETURNING "contentId"`, [runId]);
    if (rows.length === 0) break;
    for (const r of rows) contents.add(Number(r.contentId));
    await giveTurn();
  }
  return [...contents];
}

export interface DeletedRun {
  key: string;
  items: number;
  generations: number;
  /** share links of the key that were revoked with it (a later run loaded under the same key must not inherit them) */
  shareLinks: number;
}

/**
 * Deletes the run with this key and everything of it (items, the item contents no other run
 * shares, generations, stored aggregates, signposts, search index rows, share links) in one transaction: either all of
 * it goes or nothing does. Returns null, touching nothing, when no run has the key. On the
 * server's store (`sharesEventLoop`) the rows go in slices, giving the event loop turns.
 */
export async function deleteRun(raw: RawDb, key: string, { sharesEventLoop = false } = {}): Promise<DeletedRun | null> {
  return raw.transaction(async (tx) => {
    const [run] = await tx.query<{ id: number; itemCount: number; generationCount: number }>(
      `SELECT "id", "itemCount", "generationCount" FROM "Run" WHERE "key" = $1`,
      [key],
    );
    if (!run) return null;
    // the content ids its items used, read before they go (or as they go, in slices)
    const sliced = sharesEventLoop && tx.provider === "sqlite";
    const contents = sliced ? await deleteRowsInSlices(tx, Number(run.id)) : await contentsOfRun(tx, Number(run.id));
    const shareLinks = await tx.exec(`DELETE FROM "ShareLink" WHERE "runKey" = $1`, [key]);
    // Items, generations, length and step aggregates and signposts go by ON DELETE CASCADE, its
    // search-index rows by a trigger (SQLite, migration 0018).
    await tx.exec(`DELETE FROM "Run" WHERE "id" = $1`, [run.id]);
    await dropUnusedContents(tx, contents, sliced ? giveTurn : undefined);
    return { key, items: Number(run.itemCount), generations: Number(run.generationCount), shareLinks };
  });
}

export class RunGoneError extends Error {}

/**
 * For a transaction about to write rows of a run it did not create: makes sure the run is
 * still there and, on PostgreSQL, keeps it there until the transaction ends (a delete of it
 * waits, and its trigger then takes what was written). There a run's items, generations and
 * search-index rows hold no foreign key to it (migration 0022), so this lock, once per
 * transaction, is the check the keys made per row; SQLite keeps its keys, and its write
 * transactions exclude each other anyway.
 */
export async function holdRun(tx: RawTx, runId: number): Promise<void> {
  const lock = tx.provider === "postgres" ? " FOR KEY SHARE" : "";
  const found = await tx.query(`SELECT 1 FROM "Run" WHERE "id" = $1${lock}`, [runId]);
  if (found.length === 0) throw new RunGoneError(`run ${runId} was deleted while it was being written`);
}
