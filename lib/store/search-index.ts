import type { RawDb, RawTx } from "./raw";
import { SEARCH_TERMS_FUNCTION, searchTerms, termsOf } from "./search-terms";

// SQLite's search index (FTS5, contentless since migration 0015: the outputs are stored
// deflated, lib/store/output-text.ts; since 0017 it holds each output's distinct trigrams and
// its run, lib/store/search-terms.ts). Every writer hands the index the text as it
// writes the row: a bulk load adds each batch's outputs as it inserts them (on the loader's
// thread; a load on two threads has their words built on the analysis thread) with its run flagged
// `searchIndexed = false` until its commit, so the run commits searchable; `stepwise run`
// adds each generation it stores. A load may leave the index to indexPendingRuns after its
// commit (one INSERT … SELECT per run); a run still waiting is searched by a scan
// (lib/queries/item-count.ts), exact, only slower. PostgreSQL keeps its pg_trgm index
// itself, so there is nothing to do there.

/** Removes an indexed run's rows from the index before the run is deleted (replaced). */
export async function unindexRun(tx: RawTx, provider: RawDb["provider"], key: string): Promise<void> {
  if (provider !== "sqlite") return;
  await tx.exec(
    `DELETE FROM "GenerationFts" WHERE rowid IN
       (SELECT g."id" FROM "Generation" g JOIN "Run" r ON r."id" = g."runId" WHERE r."key" = $1 AND r."searchIndexed")`,
    [key],
  );
}

/** Adds generations of run `runId` being written, [id, its output's words (outputWords)] each, to the index (SQLite). */
export async function indexRows(tx: RawTx, runId: number, rows: [unknown, string][]): Promise<void> {
  await tx.insertRows(
    "GenerationFts",
    ["rowid", "terms"],
    rows.map(([id, words]) => [id, termsOf(runId, words)]),
  );
}

/** Adds one generation written on its own (`stepwise run`) to the index, when its run is indexed. */
export async function indexGeneration(tx: RawTx, runId: number, id: number, text: string): Promise<void> {
  if (tx.provider !== "sqlite") return;
  await tx.exec(`INSERT INTO "GenerationFts"(rowid, "terms") SELECT $1, $2 WHERE (SELECT "searchIndexed" FROM "Run" WHERE "id" = $3)`, [
    id,
    searchTerms(runId, text),
    runId,
  ]);
}

/** Flags runs whose outputs were indexed as they were written. */
export async function markIndexed(tx: RawTx, runIds: number[]): Promise<void> {
  if (tx.provider !== "sqlite") return;
  for (const id of runIds) await tx.exec(`UPDATE "Run" SET "searchIndexed" = true WHERE "id" = $1`, [id]);
}

/** Indexes runs written in an earlier transaction; returns the generations indexed. */
async function indexRuns(tx: RawTx, runIds: number[]): Promise<number> {
  let n = 0;
  for (const id of runIds) {
    n += await tx.exec(
      `INSERT INTO "GenerationFts"(rowid, "terms")
       SELECT "id", ${SEARCH_TERMS_FUNCTION}("runId", stepwise_output("output", "outputDeflated")) FROM "Generation" WHERE "runId" = $1`,
      [id],
    );
    await tx.exec(`UPDATE "Run" SET "searchIndexed" = true WHERE "id" = $1`, [id]);
  }
  return n;
}

/** Indexes every run still waiting (a deferred load), one transaction per run. */
export async function indexPendingRuns(raw: RawDb): Promise<number> {
  if (raw.provider !== "sqlite") return 0;
  const pending = await raw.transaction((tx) => tx.query<{ id: number }>(`SELECT "id" FROM "Run" WHERE NOT "searchIndexed" ORDER BY "id"`));
  let n = 0;
  for (const { id } of pending) {
    n += await raw.transaction(async (tx) => {
      // Re-checked inside the transaction: another process may have indexed or replaced it.
      const still = await tx.query(`SELECT 1 FROM "Run" WHERE "id" = $1 AND NOT "searchIndexed"`, [id]);
      if (still.length === 0) return 0;
      return indexRuns(tx, [id]);
    });
  }
  return n;
}
