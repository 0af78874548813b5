import { STEP_STATUSES, type StepStatus } from "../analysis/types";
import { derivedStepTrace } from "./derived-trace";
import { decodeItemContent } from "./item-content";
import { storedOutput } from "./output-text";
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

/**
 * Migration 0021's data step: the stored step traces of procedural-arith runs dropped where
 * recomputing them from the item and output (lib/store/derived-trace.ts) gives the same steps,
 * so an upgraded store holds what a load writes now. A trace the recomputation does not
 * reproduce (a run loaded by a version that analysed otherwise) is kept, and read as before.
 */
export async function dropRecomputableTraces(tx: RawTx): Promise<number> {
  const runs = await tx.query<{ id: number; benchmark: string; config: string; variantJson: string }>(
    `SELECT "id", "benchmark", "config", "variantJson" FROM "Run" WHERE "benchmark" = 'procedural-arith' ORDER BY "id"`,
  );
  let dropped = 0;
  for (const run of runs) {
    const settings = { benchmark: run.benchmark, config: String(run.config), variantJson: String(run.variantJson) };
    let after = 0;
    for (;;) {
      const rows = await tx.query<{
        id: number;
        itemKey: string;
        length: number;
        epoch: number;
        output: string;
        outputDeflated: Uint8Array | null;
        statuses: string;
        stepTrace: Uint8Array;
        body: Uint8Array;
      }>(
        `SELECT g."id", g."itemKey", g."length", g."epoch", g."output", g."outputDeflated", g."statuses", g."stepTrace", c."body"
         FROM "Generation" g JOIN "Item" i ON i."id" = g."itemId" JOIN "ItemContent" c ON c."id" = i."contentId"
         WHERE g."runId" = $1 AND g."id" > $2 AND g."stepTrace" IS NOT NULL ORDER BY g."id" LIMIT ${BATCH}`,
        [run.id, after],
      );
      if (rows.length === 0) break;
      const ids: number[] = [];
      for (const r of rows) {
        try {
          const item = { id: String(r.itemKey), length: Number(r.length), epoch: Number(r.epoch), input: decodeItemContent(r.body).input };
          const derived = derivedStepTrace(settings, item, storedOutput(String(r.output), r.outputDeflated), String(r.statuses));
          if (JSON.stringify(derived) === JSON.stringify(decodeStepTrace(r.stepTrace))) ids.push(Number(r.id));
        } catch {
          /* not reproduced: the stored trace stays */
        }
      }
      if (ids.length)
        await tx.exec(`UPDATE "Generation" SET "stepTrace" = NULL WHERE "id" IN (${ids.map((_, k) => `$${k + 1}`).join(", ")})`, ids);
      dropped += ids.length;
      after = Number(rows[rows.length - 1].id);
    }
  }
  return dropped;
}
