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
  await (
    await startSignposts(tx, runId)
  ).done;
}

/** A signpost a writer counted (lib/store/item-order.ts): its list, position, itemId and epoch. */
export type CountedSignpost = [SignpostList, number, number, number];

/**
 * Starts writing a run's signposts at its end: the rows its writer counted, or else by
 * ordered passes over the run. On PostgreSQL they go as one script, with `then` (more
 * statements) after them, left running: the server works on it while the loader's thread
 * computes the run's metrics, and `done` settles when it is finished. SQLite writes them (and
 * `then`) before returning: its statements run on this thread.
 */
export async function startSignposts(
  tx: RawTx,
  runId: number,
  then = "",
  counted: CountedSignpost[] | null = null,
): Promise<{ done: Promise<unknown> }> {
  const own = counted ? countedScript(runId, counted) : signpostsScript(runId);
  const script = then ? `${own}\n${then}` : own;
  if (tx.provider === "postgres") return { done: tx.script(script) };
  await tx.script(script);
  return { done: Promise.resolve() };
}

/** The inserts of counted signposts, written into the script: integers and the lists' own names only. */
function countedScript(runId: number, rows: CountedSignpost[]): string {
  const values = rows.map(([list, position, itemId, epoch]) => {
    if (![runId, position, itemId, epoch].every(Number.isSafeInteger) || !(list in SIGNPOST_LISTS))
      throw new Error(`internal: signpost ${list} ${position} ${itemId} ${epoch}`);
    return `(${runId}, '${list}', ${position}, ${itemId}, ${epoch})`;
  });
  const del = `DELETE FROM "RunSignpost" WHERE "runId" = ${runId};`;
  if (!values.length) return del;
  return `${del}\nINSERT INTO "RunSignpost" ("runId", "list", "position", "itemId", "epoch") VALUES ${values.join(", ")};`;
}

/**
 * The statements of writeSignposts as one script (its run id written in: an integer): sent at
 * once, the server runs them while the loader's thread computes the run's metrics.
 */
function signpostsScript(runId: number): string {
  if (!Number.isSafeInteger(runId)) throw new Error(`internal: run id ${runId}`);
  const inserts = Object.entries(SIGNPOST_LISTS).map(
    ([list, filter]) =>
      `INSERT INTO "RunSignpost" ("runId", "list", "position", "itemId", "epoch")
       SELECT ${runId}, '${list}', "n", "itemId", "epoch" FROM (
         SELECT "itemId", "epoch", ROW_NUMBER() OVER (ORDER BY "itemId", "epoch") - 1 AS "n"
         FROM "Generation" WHERE "runId" = ${runId} ${filter}
       ) o WHERE "n" % ${SIGNPOST_EVERY} = 0;`,
  );
  return [`DELETE FROM "RunSignpost" WHERE "runId" = ${runId};`, ...inserts].join("\n");
}
