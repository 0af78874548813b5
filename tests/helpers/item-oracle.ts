// The item table as Prisma reads it (findMany with a `where`, `orderBy` and relation select):
// the oracle the SQL of lib/queries/items.ts and item-sql.ts is checked against, on both stores.
import { FAILURE_MODES } from "../../lib/analysis/types";
import type { Store } from "../../lib/db";
import type { Prisma } from "../../lib/generated/sqlite/client";
import type { ItemRow } from "../../lib/queries/items";
import { storedOutput } from "../../lib/store/output-text";
import { effectiveItemSort, parseDivergence, type RunParams } from "../../lib/url/run";

function where(runId: number, p: RunParams): Prisma.GenerationWhereInput {
  const and: Prisma.GenerationWhereInput[] = [{ runId }];
  if (p.failed) and.push({ firstCorrect: false });
  if (p.mode) {
    const bit = 1 << FAILURE_MODES.indexOf(p.mode);
    and.push({ modes: { in: [...Array(1 << FAILURE_MODES.length).keys()].filter((m) => m & bit) } });
  }
  if (p.kind) and.push({ divergenceKind: p.kind });
  if (p.minLen !== undefined) and.push({ length: { gte: p.minLen } });
  if (p.maxLen !== undefined) and.push({ length: { lte: p.maxLen } });
  const div = parseDivergence(p.div);
  if (div?.kind === "none") and.push({ firstDivergence: null });
  if (div?.kind === "exact") and.push({ firstDivergence: div.step });
  if (div?.kind === "range") and.push({ firstDivergence: { gte: div.from, lte: div.to } });
  return { AND: and };
}

function orderBy(p: RunParams): Prisma.GenerationOrderByWithRelationInput[] {
  const { sort, dir } = effectiveItemSort(p);
  const order: Prisma.GenerationOrderByWithRelationInput[] = [{ itemId: "asc" }, { epoch: "asc" }];
  switch (sort) {
    case "item":
      return [{ itemKey: dir }, { epoch: "asc" }];
    case "length":
      return [{ length: dir }, ...order];
    case "divergence":
      return [{ firstDivergence: { sort: dir, nulls: "last" } }, ...order];
    case "correct":
      return [{ firstCorrect: dir }, ...order];
    default:
      return dir === "asc" ? order : [{ itemId: "desc" }, { epoch: "desc" }];
  }
}

/**
 * The search filter is applied here, not by Prisma: its `contains` passes `%` and `_` on as
 * LIKE wildcards, where the table matches the text literally. Search ignores the case of ASCII
 * letters (only theirs) on both stores; so does this.
 */
function contains(output: string | null, q: string): boolean {
  if (output === null) return false;
  const fold = (t: string) => t.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return fold(output).includes(fold(q));
}

export async function oracleItems(store: Store, runId: number, p: RunParams): Promise<ItemRow[]> {
  const all = await store.prisma.generation.findMany({
    where: where(runId, p),
    orderBy: orderBy(p),
    select: {
      itemKey: true,
      epoch: true,
      length: true,
      firstAnswer: true,
      lastAnswer: true,
      firstCorrect: true,
      lastCorrect: true,
      firstDivergence: true,
      divergenceKind: true,
      modes: true,
      clean: true,
      statuses: true,
      completionTokens: true,
      latencyMs: true,
      item: { select: { inducedErrorRate: true } },
      output: true,
      outputDeflated: true,
    },
  });
  const found = p.q ? all.filter((g) => contains(storedOutput(g.output, g.outputDeflated), p.q!)) : all;
  return found.map((g) => ({
    itemId: g.itemKey,
    epoch: g.epoch,
    length: g.length,
    firstAnswer: g.firstAnswer,
    lastAnswer: g.lastAnswer,
    firstCorrect: g.firstCorrect,
    lastCorrect: g.lastCorrect,
    firstDivergence: g.firstDivergence,
    divergenceKind: g.divergenceKind,
    modes: FAILURE_MODES.filter((_, i) => (g.modes & (1 << i)) !== 0),
    clean: g.clean,
    statuses: g.statuses,
    completionTokens: g.completionTokens,
    latencyMs: g.latencyMs,
    inducedErrorRate: g.item.inducedErrorRate,
  }));
}
