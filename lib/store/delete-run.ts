import { contentsOfRun, dropUnusedContents } from "./item-content";
import type { RawDb } from "./raw";
import { unindexRun } from "./search-index";

// Deleting a run: `stepwise delete --run KEY` and the admins' delete on the run page.

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
 * it goes or nothing does. Returns null, touching nothing, when no run has the key.
 */
export async function deleteRun(raw: RawDb, key: string): Promise<DeletedRun | null> {
  return raw.transaction(async (tx) => {
    const [run] = await tx.query<{ id: number; itemCount: number; generationCount: number }>(
      `SELECT "id", "itemCount", "generationCount" FROM "Run" WHERE "key" = $1`,
      [key],
    );
    if (!run) return null;
    await unindexRun(tx, tx.provider, key);
    const shareLinks = await tx.exec(`DELETE FROM "ShareLink" WHERE "runKey" = $1`, [key]);
    const contents = await contentsOfRun(tx, Number(run.id));
    // Items, generations, length and step aggregates and signposts go by ON DELETE CASCADE.
    await tx.exec(`DELETE FROM "Run" WHERE "id" = $1`, [run.id]);
    await dropUnusedContents(tx, contents);
    return { key, items: Number(run.itemCount), generations: Number(run.generationCount), shareLinks };
  });
}
