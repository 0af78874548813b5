import type { Db } from "../../lib/db";
import { decodeStepTrace } from "../../lib/store/step-trace";

/** Steps stored for the given run (or the whole store), counted by decoding every step trace record. */
export async function storedStepCount(p: Db, runId?: number): Promise<number> {
  const gens = await p.generation.findMany({
    where: { ...(runId === undefined ? {} : { runId }), stepTrace: { not: null } },
    select: { stepTrace: true },
  });
  return gens.reduce((t, g) => t + decodeStepTrace(g.stepTrace).length, 0);
}
