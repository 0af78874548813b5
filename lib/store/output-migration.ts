import { deflateOutput } from "./output-text";
import type { RawTx } from "./raw";
import { indexRows } from "./search-index";

// Migration 0015's data step (SQLite; lib/store/migrate.ts runs it between the halves of the
// SQL file): every stored output deflated into Generation.outputDeflated, `output` emptied,
// and the outputs of runs that were searchable added to the new contentless index. Batches
// of generations, so a store of any size converts in bounded memory.

const BATCH = 2000;

export async function deflateStoredOutputs(tx: RawTx): Promise<number> {
  let after = 0;
  let converted = 0;
  for (;;) {
    const rows = await tx.query<{ id: number; output: string; indexed: number }>(
      `SELECT g."id", g."output", r."searchIndexed" AS "indexed" FROM "Generation" g JOIN "Run" r ON r."id" = g."runId"
       WHERE g."id" > $1 ORDER BY g."id" LIMIT ${BATCH}`,
      [after],
    );
    if (rows.length === 0) return converted;
    const index: unknown[][] = [];
    for (const r of rows) {
      const text = String(r.output);
      if (r.indexed) index.push([r.id, text]);
      const deflated = deflateOutput(text);
      if (deflated) await tx.exec(`UPDATE "Generation" SET "output" = '', "outputDeflated" = $1 WHERE "id" = $2`, [deflated, r.id]);
    }
    if (index.length) await indexRows(tx, index);
    converted += rows.length;
    after = Number(rows[rows.length - 1].id);
  }
}
