import type { RawDb, RawTx } from "./raw";

// SQLite's search index (FTS5 trigram over Generation.output, migrations 0004 and 0006) is
// built for a bulk-loaded run after the load has committed, in a transaction of its own, so
// the load's transaction holds only rows and analysis. Until the flag is set, search in that
// run's outputs scans the run instead (lib/queries/item-count.ts): exact, only slower. A
// crash in between leaves the flag unset; the next load indexes every run still waiting.
// PostgreSQL keeps its pg_trgm index itself, so there is nothing to do there.

/** Removes an indexed run's rows from the index before the run is deleted (replaced). */
export async function unindexRun(tx: RawTx, provider: RawDb["provider"], key: string): Promise<void> {
  if (provider !== "sqlite") return;
  await tx.exec(
    `INSERT INTO "GenerationFts"("GenerationFts", rowid, "output")
     SELECT 'delete', g."id", g."output" FROM "Generation" g JOIN "Run" r ON r."id" = g."runId"
     WHERE r."key" = $1 AND r."searchIndexed"`,
    [key],
  );
}

/** Indexes every run waiting for it, one transaction per run; returns the generations indexed. */
export async function indexPendingRuns(raw: RawDb): Promise<number> {
  if (raw.provider !== "sqlite") return 0;
  const pending = await raw.transaction((tx) => tx.query<{ id: number }>(`SELECT "id" FROM "Run" WHERE NOT "searchIndexed" ORDER BY "id"`));
  let n = 0;
  for (const { id } of pending) {
    n += await raw.transaction(async (tx) => {
      // Re-checked inside the transaction: another process may have indexed or replaced it.
      const still = await tx.query(`SELECT 1 FROM "Run" WHERE "id" = $1 AND NOT "searchIndexed"`, [id]);
      if (still.length === 0) return 0;
      const rows = await tx.exec(`INSERT INTO "GenerationFts"(rowid, "output") SELECT "id", "output" FROM "Generation" WHERE "runId" = $1`, [id]);
      await tx.exec(`UPDATE "Run" SET "searchIndexed" = true WHERE "id" = $1`, [id]);
      return rows;
    });
  }
  return n;
}
