import "server-only";
import type { RunAccess } from "@/lib/auth/run-access";
import type { ReadContext } from "@/lib/read-context";
import type { McNemarResult } from "@/lib/stats/mcnemar";
import type { CompareParams } from "@/lib/url/compare";
import { pairItems } from "./compare-items";
import { pairStats } from "./compare-sql";
import { runLabels } from "./run-options";
import { RUN_FROM } from "./run-fields";
import { join, sql } from "@/lib/store/sql";

// Paired comparison of runs over the same items (Generation.itemKey, epoch 0). The first
// run is the baseline A; every other run is compared with it. Counts come from the stored
// per-generation outcome columns; nothing of a run's own metrics is recomputed. The pairing
// runs in SQL (compare-sql.ts, compare-items.ts): no run is read into memory.

export interface CompareRun {
  key: string;
  label: string;
  model: string;
  benchmark: string;
  variant: string;
  items: number;
}

export type Outcome = "both" | "regression" | "improvement" | "neither";

export interface PairItem {
  itemKey: string;
  length: number;
  aCorrect: boolean;
  bCorrect: boolean;
  aDiv: number | null;
  bDiv: number | null;
  outcome: Outcome;
}

export interface PairSummary {
  a: string;
  b: string;
  /** index of B in the runs list (1-based position after the baseline) */
  index: number;
  sameVariant: boolean;
  shared: number;
  onlyA: number;
  onlyB: number;
  /** same item id but a different length: not the same item, left out of the pairing */
  mismatched: number;
  table: { both: number; onlyA: number; onlyB: number; neither: number };
  accA: number | null;
  accB: number | null;
  test: McNemarResult;
  divergence: { n: number; mean: number | null; median: number | null; earlier: number; later: number; same: number };
  /** per length: accuracies and the 2 × 2 table of the shared items (for paired intervals) */
  byLength: { length: number; n: number; accA: number; accB: number; delta: number; both: number; onlyA: number; onlyB: number }[];
}

export interface CompareData {
  runs: CompareRun[];
  unknown: string[];
  pairs: PairSummary[];
  /** item list of the pair chosen by `vs` */
  items: { pair: number; rows: PairItem[]; total: number; page: number; pages: number };
}

/**
 * The comparison of `runs` (baseline first), each with its access proof: the page resolves the
 * URL's keys among the runs its reader may see (resolveRunPieces), checks each, then asks here.
 */
export async function getComparison(ctx: ReadContext, sel: RunAccess[], p: CompareParams): Promise<Omit<CompareData, "unknown">> {
  const empty = { runs: [], pairs: [], items: { pair: 1, rows: [], total: 0, page: 1, pages: 1 } };
  if (sel.length === 0) return empty;
  const found = await ctx.store.read(sql`
    SELECT r."id", r."benchmark", r."itemCount", m."name" AS "model", v."name" AS "variant" FROM ${RUN_FROM}
    WHERE r."id" IN (${join(sel.map((r) => r.id))})`);
  const byId = new Map(
    found.map((r) => [
      Number(r.id),
      { benchmark: String(r.benchmark), itemCount: Number(r.itemCount), model: String(r.model), variant: String(r.variant) },
    ]),
  );
  // A run replaced since its check has a new id: left out, as an unknown key would be.
  const present = sel.filter((r) => byId.has(r.id));
  const rowOf = (r: RunAccess) => byId.get(r.id)!;
  const labels = runLabels(present.map((r) => ({ key: r.key, model: rowOf(r).model, variant: rowOf(r).variant })));
  const runs = present.map<CompareRun>((r) => ({
    key: r.key,
    label: labels.get(r.key) ?? rowOf(r).model,
    model: rowOf(r).model,
    benchmark: rowOf(r).benchmark,
    variant: rowOf(r).variant,
    items: rowOf(r).itemCount,
  }));
  if (present.length < 2) return { ...empty, runs };

  const base = present[0];
  const vs = Math.min(p.vs, present.length - 1);
  const pairs: PairSummary[] = [];
  for (const [i, r] of present.slice(1).entries()) {
    pairs.push({
      a: base.key,
      b: r.key,
      index: i + 1,
      sameVariant: rowOf(r).benchmark === rowOf(base).benchmark && rowOf(r).variant === rowOf(base).variant,
      ...(await pairStats(ctx, base, r, p.answer)),
    });
  }
  const items = await pairItems(ctx, base, present[vs], p.answer, p.show, pairs[vs - 1], p.page);
  return { runs, pairs, items: { pair: vs, ...items } };
}
