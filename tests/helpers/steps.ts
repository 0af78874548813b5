import fs from "node:fs";
import path from "node:path";
import type { Db } from "../../lib/db";
import { NativeReader } from "../../lib/native/reader";
import type { RawTx } from "../../lib/store/raw";
import { EXAMPLES } from "./fixtures";
import { deflateRawSync } from "node:zlib";
import { STATUS_LETTER } from "../../lib/analysis/types";
import { decodeStepTrace, type StoredStep } from "../../lib/store/step-trace";

/**
 * Steps stored for the given run (or the whole store): each step trace record decoded, and
 * where a generation has none (procedural-arith: recomputed when read), its status letters.
 */
export async function storedStepCount(p: Db, runId?: number): Promise<number> {
  const gens = await p.generation.findMany({
    where: runId === undefined ? {} : { runId },
    select: { stepTrace: true, statuses: true },
  });
  return gens.reduce((t, g) => t + (g.stepTrace === null ? g.statuses.length : decodeStepTrace(g.stepTrace).length), 0);
}

/** A version 1 step trace record (lib/store/step-trace.ts before version 2) of decoded steps: every value listed. */
export function stepTraceV1(steps: readonly StoredStep[]): Buffer {
  const pack = (v: string | null) =>
    v === null ? null : v !== "" && Number.isFinite(Number(v)) && String(Number(v)) === v ? Number(v) : v;
  const spans: (number | null)[] = [];
  let end = 0;
  for (const s of steps) {
    if (s.span) {
      spans.push(s.span[0] - end, s.span[1] - s.span[0]);
      end = s.span[1];
    } else spans.push(null);
  }
  const statuses = steps.map((s) => STATUS_LETTER[s.status]).join("");
  const columns = (pick: (s: StoredStep) => string | null) => steps.map((s) => pack(pick(s)));
  const json = JSON.stringify([1, statuses, columns((s) => s.expected), columns((s) => s.claimed), columns((s) => s.recomputed), spans]);
  return deflateRawSync(json, { level: 6 });
}

/**
 * Gives every procedural-arith generation copied into `dst` the step trace record a load made
 * before migration 0021 (`encode` of its analysed steps, from the example files read again),
 * where today's loads store none. Returns how many records it wrote.
 */
export async function writeArithTraces(
  src: RawTx,
  dst: RawTx,
  files: readonly string[],
  encode: (steps: StoredStep[]) => Buffer,
): Promise<number> {
  const ids = new Map<string, number>();
  for (const g of await src.query<{ id: number; key: string; itemKey: string; epoch: number }>(
    `SELECT g."id", r."key", g."itemKey", g."epoch" FROM "Generation" g JOIN "Run" r ON r."id" = g."runId" WHERE r."benchmark" = 'procedural-arith'`,
  ))
    ids.set(`${g.key}\u0000${g.itemKey}\u0000${g.epoch}`, Number(g.id));
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  let written = 0;
  for (const f of files) {
    const reader = new NativeReader(f);
    const lines = fs.readFileSync(path.join(EXAMPLES, f), "utf8").split("\n");
    for (let i = 0; i < lines.length; i++) {
      const ev = reader.line(lines[i], i + 1);
      if (ev?.kind !== "generation" || !ev.analysis.hasSteps) continue;
      const id = ids.get(`${ev.header.key}\u0000${ev.item.id}\u0000${ev.item.epoch}`);
      if (id === undefined) continue;
      const steps = ev.analysis.steps.map((s) => ({
        step: s.step,
        status: s.status,
        expected: String(s.expected),
        claimed: text(s.claimed),
        recomputed: text(s.recomputed),
        span: s.span ? ([s.span[0], s.span[1]] as [number, number]) : null,
      }));
      await dst.exec(`UPDATE "Generation" SET "stepTrace" = $1 WHERE "id" = $2`, [encode(steps), id]);
      written++;
    }
  }
  return written;
}
