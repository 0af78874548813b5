import type { RawTx } from "./raw";
import { encodeItemContent, keepsReference, storeContents } from "./item-content";

// Migration 0014's data step (lib/store/migrate.ts runs it between the two halves of the SQL
// file): every item's input text (and reference, for generic runs) become a shared ItemContent
// record (the one today's writer stores for the same item), and every stored analysis loses the operand
// values of its wrong steps (the trace diff now derives them). In batches, so a store of any
// size converts in bounded memory.

const BATCH = 2000;

export async function convertItemContents(tx: RawTx): Promise<{ items: number; analyses: number }> {
  let items = 0;
  for (let after = 0; ;) {
    const rows = await tx.query<{ id: number; input: string; reference: string; benchmark: string }>(
      `SELECT i."id", i."input", i."reference", r."benchmark" FROM "Item" i JOIN "Run" r ON r."id" = i."runId"
       WHERE i."id" > $1 ORDER BY i."id" LIMIT ${BATCH}`,
      [after],
    );
    if (rows.length === 0) break;
    const ids = rows.map((r) => Number(r.id));
    const contentIds = await storeContents(
      tx,
      rows.map((r) => encodeItemContent(r.input, keepsReference(r.benchmark) ? r.reference : null)),
    );
    await updateColumn(tx, "Item", "contentId", "int", ids, contentIds);
    items += rows.length;
    after = ids[ids.length - 1];
  }
  let analyses = 0;
  for (let after = 0; ;) {
    const rows = await tx.query<{ id: number; analysis: string }>(
      `SELECT "id", "analysis" FROM "Generation" WHERE "id" > $1 ORDER BY "id" LIMIT ${BATCH}`,
      [after],
    );
    if (rows.length === 0) break;
    const ids: number[] = [];
    const texts: string[] = [];
    for (const r of rows) {
      let a: unknown;
      try {
        a = JSON.parse(r.analysis);
      } catch {
        continue; // not written by our writer; the page reads it as it always has
      }
      if (typeof a !== "object" || a === null || !("operands" in a)) continue;
      delete (a as { operands?: unknown }).operands;
      ids.push(Number(r.id));
      texts.push(JSON.stringify(a));
    }
    await updateColumn(tx, "Generation", "analysis", "text", ids, texts);
    analyses += ids.length;
    after = Number(rows[rows.length - 1].id);
  }
  return { items, analyses };
}

async function updateColumn(tx: RawTx, table: string, column: string, pgType: string, ids: number[], values: unknown[]): Promise<void> {
  if (ids.length === 0) return;
  if (tx.provider === "postgres")
    await tx.exec(
      `UPDATE "${table}" t SET "${column}" = v."x" FROM unnest($1::int[], $2::${pgType}[]) AS v("id", "x") WHERE t."id" = v."id"`,
      [ids, values],
    );
  else for (let k = 0; k < ids.length; k++) await tx.exec(`UPDATE "${table}" SET "${column}" = $1 WHERE "id" = $2`, [values[k], ids[k]]);
}
