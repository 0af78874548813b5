import { compressOutput } from "./output-text";
import type { RawTx } from "./raw";

// Migration 0015's data step (SQLite; lib/store/migrate.ts runs it between the halves of the
// SQL file): every stored output compressed into Generation.outputDeflated, `output` emptied.
// The searchable runs' outputs are indexed again by migration 0017, which comes after it in
// any store that needs this one. Batches of generations, so a store of any size converts in
// bounded memory.

const BATCH = 2000;

export async function deflateStoredOutputs(tx: RawTx): Promise<number> {
  let after = 0;
  let converted = 0;
  for (;;) {
    const rows = await tx.query<{ id: number; output: string }>(
      `SELECT "id", "output" FROM "Generation" WHERE "id" > $1 ORDER BY "id" LIMIT ${BATCH}`,
      [after],
    );
    if (rows.length === 0) return converted;
    for (const r of rows) {
      const packed = compressOutput(String(r.output));
      if (packed) await tx.exec(`UPDATE "Generation" SET "output" = '', "outputDeflated" = $1 WHERE "id" = $2`, [packed, r.id]);
    }
    converted += rows.length;
    after = Number(rows[rows.length - 1].id);
  }
}
