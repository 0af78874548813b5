import type { Db } from "../../lib/db";
import { deflateRawSync } from "node:zlib";
import { STATUS_LETTER } from "../../lib/analysis/types";
import { decodeStepTrace, type StoredStep } from "../../lib/store/step-trace";

/** Steps stored for the given run (or the whole store), counted by decoding every step trace record. */
export async function storedStepCount(p: Db, runId?: number): Promise<number> {
  const gens = await p.generation.findMany({
    where: { ...(runId === undefined ? {} : { runId }), stepTrace: { not: null } },
    select: { stepTrace: true },
  });
  return gens.reduce((t, g) => t + decodeStepTrace(g.stepTrace).length, 0);
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
