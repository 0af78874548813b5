import type { RawDb, RawTx } from "./raw";
import { storedOutput } from "./output-text";
import { PostingBuilder } from "./posting-builder";
import { writePostings } from "./search-postings";

// The search index of both stores (the table SearchPosting since migration 0018 on SQLite and
// 0019 on PostgreSQL: which generations of a run hold each trigram,
// lib/store/search-postings.ts). Every writer hands the index the output's text as it writes
// the row: a bulk load adds each block of outputs once written (on the loader's thread) with
// its run flagged `searchIndexed = false` until its commit, so the run commits searchable;
// `stepwise run` adds each generation it stores. A load may leave the index to
// indexPendingRuns after its commit (the run's stored outputs read back in pages of 2,048); a
// run still waiting is searched by a scan (lib/queries/item-count.ts), exact, only slower.
// PostgreSQL had pg_trgm's GIN index over the output column until 0019: the server maintained
// it, and it was half of a load's time there (docs/performance.md, "Load").

/** Adds one generation written on its own (`stepwise run`) to the index, when its run is indexed. */
export async function indexGeneration(tx: RawTx, runId: number, id: number, text: string): Promise<void> {
  const [run] = await tx.query<{ searchIndexed: unknown }>(`SELECT "searchIndexed" FROM "Run" WHERE "id" = $1`, [runId]);
  if (!run?.searchIndexed) return;
  const builder = new PostingBuilder(runId);
  builder.add(id, text);
  await writePostings(tx, builder.take());
}

/** Flags runs whose outputs were indexed as they were written. */
export async function markIndexed(tx: RawTx, runIds: number[]): Promise<void> {
  for (const id of runIds) await tx.exec(`UPDATE "Run" SET "searchIndexed" = true WHERE "id" = $1`, [id]);
}

/** Indexes runs written in an earlier transaction; returns the generations indexed. */
async function indexRuns(tx: RawTx, runIds: number[]): Promise<number> {
  let n = 0;
  for (const id of runIds) {
    n += await indexStoredOutputs(tx, id);
    await tx.exec(`UPDATE "Run" SET "searchIndexed" = true WHERE "id" = $1`, [id]);
  }
  return n;
}

/** Indexes every run still waiting (a deferred load), one transaction per run. */
export async function indexPendingRuns(raw: RawDb): Promise<number> {
  const pending = await raw.transaction((tx) => tx.query<{ id: number }>(`SELECT "id" FROM "Run" WHERE NOT "searchIndexed" ORDER BY "id"`));
  let n = 0;
  for (const { id } of pending) {
    n += await raw.transaction(async (tx) => {
      // Re-checked inside the transaction: another process may have indexed, replaced or deleted
      // it. Locked on PostgreSQL, where its postings hold no foreign key to it (see holdRun).
      const lock = tx.provider === "postgres" ? " FOR UPDATE" : "";
      const still = await tx.query(`SELECT 1 FROM "Run" WHERE "id" = $1 AND NOT "searchIndexed"${lock}`, [id]);
      if (still.length === 0) return 0;
      return indexRuns(tx, [id]);
    });
  }
  return n;
}

/** Migration 0018's data step: indexes the outputs of every run flagged searchable, in the new index. */
export async function reindexSearchableRuns(tx: RawTx): Promise<number> {
  const runs = await tx.query<{ id: number }>(`SELECT "id" FROM "Run" WHERE "searchIndexed" ORDER BY "id"`);
  let n = 0;
  for (const { id } of runs) n += await indexStoredOutputs(tx, Number(id));
  return n;
}

const INDEX_PAGE = 2048;

/** Indexes the stored outputs of run `runId` (none indexed yet); returns how many. */
async function indexStoredOutputs(tx: RawTx, runId: number): Promise<number> {
  const builder = new PostingBuilder(runId);
  let n = 0;
  for (let after = 0; ;) {
    const rows = await tx.query<{ id: number; output: string; outputDeflated: Uint8Array | null }>(
      `SELECT "id", "output", "outputDeflated" FROM "Generation" WHERE "runId" = $1 AND "id" > $2 ORDER BY "id" LIMIT ${INDEX_PAGE}`,
      [runId, after],
    );
    if (rows.length === 0) break;
    for (const r of rows) {
      const done = builder.add(Number(r.id), storedOutput(r.output, r.outputDeflated));
      if (done) await writePostings(tx, done);
    }
    n += rows.length;
    after = Number(rows[rows.length - 1].id);
  }
  await writePostings(tx, builder.take());
  return n;
}
