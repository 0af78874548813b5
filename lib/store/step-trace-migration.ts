import { STEP_STATUSES, type StepStatus } from "../analysis/types";
import type { RawTx } from "./raw";
import { decodeStepTrace, encodeStepTrace } from "./step-trace";

// Migration 0009's data step (lib/store/migrate.ts runs it between the two halves of the SQL
// file): every generation's StepResult rows become its Generation.stepTrace record, in
// batches of generations so a store of any size converts in bounded memory.

const BATCH = 2000;

interface StepResultRow {
  generationId: number;
  step: number;
  status: string;
  expected: string;
  claimed: string | null;
  recomputed: string | null;
  spanStart: number | null;
  spanEnd: number | null;
}

export async function convertStepResults(tx: RawTx): Promise<number> {
  let after = 0;
  let converted = 0;
  for (;;) {
    const ids = await tx.query<{ id: number }>(
      `SELECT DISTINCT "generationId" AS "id" FROM "StepResult" WHERE "generationId" > $1 ORDER BY "generationId" LIMIT ${BATCH}`,
      [after],
    );
    if (ids.length === 0) return converted;
    const last = Number(ids[ids.length - 1].id);
    const rows = await tx.query<StepResultRow>(
      `SELECT "generationId", "step", "status", "expected", "claimed", "recomputed", "spanStart", "spanEnd" FROM "StepResult"
       WHERE "generationId" > $1 AND "generationId" <= $2 ORDER BY "generationId", "step"`,
      [after, last],
    );
    const genIds: number[] = [];
    const traces: Buffer[] = [];
    for (let i = 0; i < rows.length;) {
      const id = Number(rows[i].generationId);
      const steps = [];
      for (; i < rows.length && Number(rows[i].generationId) === id; i++) {
        const r = rows[i];
        if (Number(r.step) !== steps.length + 1)
          throw new Error(`migration 0009: generation ${id} has step ${r.step} where step ${steps.length + 1} was expected`);
        if (!STEP_STATUSES.includes(r.status as StepStatus))
          throw new Error(`migration 0009: generation ${id} step ${r.step}: unknown status ${r.status}`);
        const span: [number, number] | null = r.spanStart !== null && r.spanEnd !== null ? [Number(r.spanStart), Number(r.spanEnd)] : null;
        steps.push({ status: r.status as StepStatus, expected: r.expected, claimed: r.claimed, recomputed: r.recomputed, span });
      }
      genIds.push(id);
      traces.push(encodeStepTrace(steps)!);
    }
    if (tx.provider === "postgres")
      await tx.exec(
        `UPDATE "Generation" g SET "stepTrace" = v."t" FROM unnest($1::int[], $2::bytea[]) AS v("id", "t") WHERE g."id" = v."id"`,
        [genIds, traces],
      );
    else
      for (let k = 0; k < genIds.length; k++)
        await tx.exec(`UPDATE "Generation" SET "stepTrace" = $1 WHERE "id" = $2`, [traces[k], genIds[k]]);
    converted += genIds.length;
    after = last;
  }
}

/**
 * Migration 0016's data step: every step trace record rewritten in the current version
 * (version 1 records are ~3× the size), in batches of generations; a record already current
 * is left as it is.
 */
export async function reencodeStepTraces(tx: RawTx): Promise<number> {
  let after = 0;
  let rewritten = 0;
  for (;;) {
    const rows = await tx.query<{ id: number; stepTrace: Uint8Array }>(
      `SELECT "id", "stepTrace" FROM "Generation" WHERE "id" > $1 AND "stepTrace" IS NOT NULL ORDER BY "id" LIMIT ${BATCH}`,
      [after],
    );
    if (rows.length === 0) return rewritten;
    for (const r of rows) {
      const record = Buffer.from(r.stepTrace);
      const current = encodeStepTrace(decodeStepTrace(record));
      if (current && !current.equals(record)) {
        await tx.exec(`UPDATE "Generation" SET "stepTrace" = $1 WHERE "id" = $2`, [current, r.id]);
        rewritten++;
      }
    }
    after = Number(rows[rows.length - 1].id);
  }
}
