import type { Store } from "../../lib/db";

/**
 * SQLite: checks the search index's structure (FTS5 integrity-check) and that it holds exactly
 * the generations of the runs flagged searchable: the index is contentless (migration 0015),
 * so FTS5 cannot compare it with the table itself. Null on PostgreSQL.
 */
export async function searchIndexExact(store: Store): Promise<boolean | null> {
  if (store.provider !== "sqlite") return null;
  return store.raw.transaction(async (tx) => {
    await tx.exec(`INSERT INTO "GenerationFts"("GenerationFts", rank) VALUES ('integrity-check', 1)`);
    const ids = (sql: string) => tx.query<{ id: number }>(sql).then((rows) => rows.map((r) => Number(r.id)).join());
    const indexed = await ids(`SELECT rowid AS "id" FROM "GenerationFts" ORDER BY rowid`);
    const wanted = await ids(
      `SELECT g."id" FROM "Generation" g JOIN "Run" r ON r."id" = g."runId" WHERE r."searchIndexed" ORDER BY g."id"`,
    );
    return indexed === wanted;
  });
}
