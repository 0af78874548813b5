import "server-only";
import { requireReader } from "../auth/server";
import { db } from "@/lib/db";
import { mcnemar, type McNemarResult } from "@/lib/stats/mcnemar";
import { mean, median } from "@/lib/stats/describe";
import { resolveRunKeys } from "@/lib/url/run-list";
import { COMPARE_PAGE_SIZE, type CompareParams, type CompareShow } from "@/lib/url/compare";
import { runLabels } from "./run-options";

// Paired comparison of runs over the same items (Generation.itemKey, epoch 0). The first
// run is the baseline A; every other run is compared with it. Counts come from the stored
// per-generation outcome columns; nothing of a run's own metrics is recomputed.

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
  byLength: { length: number; n: number; accA: number; accB: number; delta: number }[];
}

export interface CompareData {
  runs: CompareRun[];
  unknown: string[];
  pairs: PairSummary[];
  /** item list of the pair chosen by `vs` */
  items: { pair: number; rows: PairItem[]; total: number; page: number; pages: number };
}

type Gen = { itemKey: string; length: number; correct: boolean; div: number | null };

const OUTCOME_ORDER: Record<Outcome, number> = { regression: 0, improvement: 1, neither: 2, both: 3 };
const collator = new Intl.Collator("en", { numeric: true });

function outcomeOf(a: boolean, b: boolean): Outcome {
  return a && b ? "both" : a ? "regression" : b ? "improvement" : "neither";
}

function pairUp(A: Map<string, Gen>, B: Map<string, Gen>): { items: PairItem[]; onlyA: number; onlyB: number; mismatched: number } {
  const items: PairItem[] = [];
  let onlyA = 0;
  let mismatched = 0;
  for (const [k, a] of A) {
    const b = B.get(k);
    if (!b) onlyA++;
    else if (b.length !== a.length) mismatched++;
    else items.push({ itemKey: k, length: a.length, aCorrect: a.correct, bCorrect: b.correct, aDiv: a.div, bDiv: b.div, outcome: outcomeOf(a.correct, b.correct) });
  }
  let onlyB = 0;
  for (const k of B.keys()) if (!A.has(k)) onlyB++;
  return { items, onlyA, onlyB, mismatched };
}

function summarise(items: PairItem[]): Pick<PairSummary, "table" | "accA" | "accB" | "test" | "divergence" | "byLength"> {
  const table = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
  const lengths = new Map<number, { n: number; a: number; b: number }>();
  const shifts: number[] = [];
  for (const it of items) {
    if (it.outcome === "both") table.both++;
    else if (it.outcome === "regression") table.onlyA++;
    else if (it.outcome === "improvement") table.onlyB++;
    else table.neither++;
    const l = lengths.get(it.length) ?? { n: 0, a: 0, b: 0 };
    l.n++;
    l.a += it.aCorrect ? 1 : 0;
    l.b += it.bCorrect ? 1 : 0;
    lengths.set(it.length, l);
    if (it.aDiv != null && it.bDiv != null) shifts.push(it.bDiv - it.aDiv);
  }
  const n = items.length;
  return {
    table,
    accA: n ? (table.both + table.onlyA) / n : null,
    accB: n ? (table.both + table.onlyB) / n : null,
    test: mcnemar(table.onlyA, table.onlyB),
    divergence: {
      n: shifts.length,
      mean: mean(shifts),
      median: median(shifts),
      earlier: shifts.filter((d) => d < 0).length,
      later: shifts.filter((d) => d > 0).length,
      same: shifts.filter((d) => d === 0).length,
    },
    byLength: [...lengths]
      .sort((x, y) => x[0] - y[0])
      .map(([length, l]) => ({ length, n: l.n, accA: l.a / l.n, accB: l.b / l.n, delta: (l.b - l.a) / l.n })),
  };
}

function filterItems(items: PairItem[], show: CompareShow): PairItem[] {
  const byOutcome = (a: PairItem, b: PairItem) => OUTCOME_ORDER[a.outcome] - OUTCOME_ORDER[b.outcome] || a.length - b.length || collator.compare(a.itemKey, b.itemKey);
  switch (show) {
    case "regressions":
      return items.filter((i) => i.outcome === "regression").sort(byOutcome);
    case "improvements":
      return items.filter((i) => i.outcome === "improvement").sort(byOutcome);
    case "both-wrong":
      return items.filter((i) => i.outcome === "neither").sort(byOutcome);
    case "shift":
      return items
        .filter((i) => i.aDiv != null && i.bDiv != null && i.aDiv !== i.bDiv)
        .sort((a, b) => a.bDiv! - a.aDiv! - (b.bDiv! - b.aDiv!) || collator.compare(a.itemKey, b.itemKey));
    case "all":
      return [...items].sort(byOutcome);
    default:
      return items.filter((i) => i.outcome === "regression" || i.outcome === "improvement").sort(byOutcome);
  }
}

export async function getComparison(p: CompareParams): Promise<CompareData> {
  await requireReader();
  const empty: CompareData = { runs: [], unknown: [], pairs: [], items: { pair: 1, rows: [], total: 0, page: 1, pages: 1 } };
  if (p.runs.length === 0) return empty;
  const prisma = await db();
  const candidates = new Set<string>();
  for (let i = 0; i < p.runs.length; i++) for (let j = i + 1; j <= Math.min(p.runs.length, i + 4); j++) candidates.add(p.runs.slice(i, j).join(","));
  const found = await prisma.run.findMany({
    where: { key: { in: [...candidates] } },
    select: { id: true, key: true, benchmark: true, itemCount: true, model: { select: { name: true } }, variant: { select: { name: true } } },
  });
  const byKey = new Map(found.map((r) => [r.key, r]));
  const { keys, unknown } = resolveRunKeys(p.runs, new Set(byKey.keys()));
  const sel = keys.map((k) => byKey.get(k)!);
  const labels = runLabels(sel.map((r) => ({ key: r.key, model: r.model.name, variant: r.variant.name })));
  const runs = sel.map<CompareRun>((r) => ({ key: r.key, label: labels.get(r.key) ?? r.model.name, model: r.model.name, benchmark: r.benchmark, variant: r.variant.name, items: r.itemCount }));
  if (sel.length < 2) return { ...empty, runs, unknown };

  const gens = await prisma.generation.findMany({
    where: { runId: { in: sel.map((r) => r.id) }, epoch: 0 },
    select: { runId: true, itemKey: true, length: true, firstCorrect: true, lastCorrect: true, firstDivergence: true },
  });
  const perRun = new Map<number, Map<string, Gen>>(sel.map((r) => [r.id, new Map()]));
  for (const g of gens)
    perRun.get(g.runId)!.set(g.itemKey, { itemKey: g.itemKey, length: g.length, correct: p.answer === "last" ? g.lastCorrect : g.firstCorrect, div: g.firstDivergence });

  const base = perRun.get(sel[0].id)!;
  const vs = Math.min(p.vs, sel.length - 1);
  let chosen: PairItem[] = [];
  const pairs = sel.slice(1).map<PairSummary>((r, i) => {
    const paired = pairUp(base, perRun.get(r.id)!);
    if (i + 1 === vs) chosen = paired.items;
    return {
      a: sel[0].key,
      b: r.key,
      index: i + 1,
      sameVariant: r.benchmark === sel[0].benchmark && r.variant.name === sel[0].variant.name,
      shared: paired.items.length,
      onlyA: paired.onlyA,
      onlyB: paired.onlyB,
      mismatched: paired.mismatched,
      ...summarise(paired.items),
    };
  });
  const list = filterItems(chosen, p.show);
  const pages = Math.max(1, Math.ceil(list.length / COMPARE_PAGE_SIZE));
  const page = Math.min(p.page, pages);
  return {
    runs,
    unknown,
    pairs,
    items: { pair: vs, rows: list.slice((page - 1) * COMPARE_PAGE_SIZE, page * COMPARE_PAGE_SIZE), total: list.length, page, pages },
  };
}
