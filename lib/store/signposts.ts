import type { RawTx } from "./raw";

// Page signposts (RunSignpost): the (itemId, epoch) of every SIGNPOST_EVERY-th generation of a
// run in item order, among all its generations and among the failed ones. A typed page
// number N of those two lists seeks to the signpost at or before its first row and skips
// fewer than SIGNPOST_EVERY rows (lib/queries/items.ts), where OFFSET stepped over every row
// above the page (half the run's index entries, halfway down).

export const SIGNPOST_EVERY = 256;

/** The lists a signpost belongs to, by the item table filter they answer. */
export const SIGNPOST_LISTS = { all: "", failed: `AND "firstCorrect" = false` } as const;
export type SignpostList = keyof typeof SIGNPOST_LISTS;

/**
 * Replaces a run's signposts, once its generations are final (end of a load, a run written
 * one at a time once it completes). One ordered index-only pass per list.
 */
export async function writeSignposts(tx: RawTx, runId: number): Promise<void> {
  await tx.exec(`DELETE FROM "RunSignpost" WHERE "runId" = $1`, [runId]);
  for (const [list, filter] of Object.entries(SIGNPOST_LISTS)) {
    await tx.exec(
      `INSERT INTO "RunSignpost" ("runId", "list", "position", "itemId", "epoch")
       SELECT $1, $2, "n", "itemId", "epoch" FROM (
         SELECT "itemId", "epoch", ROW_NUMBER() OVER (ORDER BY "itemId", "epoch") - 1 AS "n"
         FROM "Generation" WHERE "runId" = $1 ${filter}
       ) o WHERE "n" % ${SIGNPOST_EVERY} = 0`,
      [runId, list],
    );
  }
}
