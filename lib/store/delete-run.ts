import { contentsOfRun, dropUnusedContents } from "./item-content";
import type { RawDb, RawTx } from "./raw";

// Deleting a run: `stepwise delete --run KEY` and the admins' delete on the run page.

const DELETE_SLICE = 1000;

/** A turn of the event loop, for the server's long writes (see RunWriter). */
export const giveTurn = () => new Promise<void>((r) => setImmediate(r));

/**
 * A SQLite run's search-index rows in one statement (a range of their key; Run_search_delete,
 * migration 0018, then finds none left), then its generations and its items DELETE_SLICE at a
 * time, with a turn of the event loop after each: for the server's store, whose thread also
 * answers requests (deleted by the run's cascade in one statement, 30,000 generations held it
 * for ~1 s). What is left (the run's aggregates) goes with the run.
 */
export async function deleteRowsInSlices(tx: RawTx, runId: number): Promise<void> {
  await tx.exec(`DELETE FROM "SearchPosting" WHERE "runId" = $1`, [runId]);
  await giveTurn();
  for (const table of ["Generation", "Item"]) {
    for (;;) {
      const n = await tx.exec(
        `DELETE FROM "${table}" WHERE "id" IN (SELECT "id" FROM "${table}" WHERE "runId" = $1 LIMIT ${DELETE_SLICE})`,
        [runId],
      );
      if (n === 0) break;
      await giveTurn();
    }
  }
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
    const contents = await contentsOfRun(tx, Number(run.id)); // before its items go
    if (sharesEventLoop && tx.provider === "sqlite") await deleteRowsInSlices(tx, Number(run.id));
    const shareLinks = await tx.exec(`DELETE FROM "ShareLink" WHERE "runKey" = $1`, [key]);
    // Items, generations, length and step aggregates and signposts go by ON DELETE CASCADE, its
    // search-index rows by a trigger (SQLite, migration 0018).
    await tx.exec(`DELETE FROM "Run" WHERE "id" = $1`, [run.id]);
    await dropUnusedContents(tx, contents);
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
