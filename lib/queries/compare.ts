import "server-only";
import { db } from "@/lib/db";
import type { McNemarResult } from "@/lib/stats/mcnemar";
import { resolveRunKeys } from "@/lib/url/run-list";
import type { CompareParams } from "@/lib/url/compare";
import { pairItems } from "./compare-items";
import { pairStats } from "./compare-sql";
import { runLabels } from "./run-options";

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

export async function getComparison(p: CompareParams): Promise<CompareData> {
  const empty: CompareData = { runs: [], unknown: [], pairs: [], items: { pair: 1, rows: [], total: 0, page: 1, pages: 1 } };
  if (p.runs.length === 0) return empty;
  const prisma = await db();
  const candidates = new Set<string>();
  for (let i = 0; i < p.runs.length; i++)
    for (let j = i + 1; j <= Math.min(p.runs.length, i + 4); j++) candidates.add(p.runs.slice(i, j).join(","));
  const found = await prisma.run.findMany({
    where: { key: { in: [...candidates] } },
    select: {
      id: true,
      key: true,
      benchmark: true,
      itemCount: true,
      status: true,
      loadedAt: true,
      model: { select: { name: true } },
      variant: { select: { name: true } },
    },
  });
  const byKey = new Map(found.map((r) => [r.key, r]));
  const { keys, unknown } = resolveRunKeys(p.runs, new Set(byKey.keys()));
  const sel = keys.map((k) => byKey.get(k)!);
  const labels = runLabels(sel.map((r) => ({ key: r.key, model: r.model.name, variant: r.variant.name })));
  const runs = sel.map<CompareRun>((r) => ({
    key: r.key,
    label: labels.get(r.key) ?? r.model.name,
    model: r.model.name,
    benchmark: r.benchmark,
    variant: r.variant.name,
    items: r.itemCount,
  }));
  if (sel.length < 2) return { ...empty, runs, unknown };

  const base = sel[0];
  const vs = Math.min(p.vs, sel.length - 1);
  const pairs: PairSummary[] = [];
  for (const [i, r] of sel.slice(1).entries()) {
    pairs.push({
      a: base.key,
      b: r.key,
      index: i + 1,
      sameVariant: r.benchmark === base.benchmark && r.variant.name === base.variant.name,
      ...(await pairStats(prisma, base, r, p.answer)),
    });
  }
  const items = await pairItems(prisma, base.id, sel[vs].id, p.answer, p.show, pairs[vs - 1], p.page);
  return { runs, unknown, pairs, items: { pair: vs, ...items } };
}
