// METR's time-horizon fit (arXiv 2503.14499; their eval-analysis code): a weighted logistic
// regression of success on log2(length) with scikit-learn's L2 penalty (C = 10 on weights that
// sum to 1 per model), and a 95% percentile interval from a hierarchical bootstrap
// family → task → run. Bootstrap resamples keep the original weights (not renormalised) and
// skip resamples with a single outcome, as METR does. Used for imported runs whose generations
// carry a weight or an exact non-step length (GenerationSummary.weight / lengthValue).
import type { RunMetricsJson } from "./types";
import type { SummaryColumns } from "./summary-columns";
import { logisticFit, mulberry32, percentileSorted } from "./stats";
import { roundTo } from "./numbers";

export interface WeightedRow {
  length: number; // > 0 (METR: human minutes)
  y: number; // success in [0, 1]
  w: number; // sample weight > 0
  family: string;
  task: string;
}

export interface WeightedFitResult {
  slope: number;
  intercept: number;
  l50: number;
  l80: number;
  l50Ci: [number, number];
  l80Ci: [number, number];
  fits: number; // bootstrap resamples that could be fitted
}

export const METR_SEED = 20250318;
const LOGIT80 = Math.log(4);

function fitRows(rows: WeightedRow[], idx: ArrayLike<number>, C: number) {
  const n = idx.length;
  const x = new Float64Array(n);
  const s = new Float64Array(n);
  const t = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const r = rows[idx[k]];
    x[k] = Math.log2(r.length);
    s[k] = r.w * r.y; // a fractional y splits into weighted 0 and 1 rows: same objective
    t[k] = r.w;
  }
  return logisticFit(x, s, t, C);
}

const horizonAt = (a: number, b: number, logit: number) => 2 ** ((logit - b) / a);

function bothOutcomes(rows: WeightedRow[], idx: ArrayLike<number>): boolean {
  let lo = false;
  let hi = false;
  for (let k = 0; k < idx.length; k++) {
    const y = rows[idx[k]].y;
    if (y < 1) lo = true;
    if (y > 0) hi = true;
  }
  return lo && hi;
}

/** One hierarchical resample: families, then tasks within each drawn family, then runs per task (pooled). */
export function hierarchicalResample(byFamily: number[][][], rows: WeightedRow[], rand: () => number): number[] {
  const below = (n: number) => Math.floor(rand() * n);
  const drawn: number[] = [];
  for (let f = 0; f < byFamily.length; f++) {
    const tasks = byFamily[below(byFamily.length)];
    for (let t = 0; t < tasks.length; t++) drawn.push(...tasks[below(tasks.length)]);
  }
  // METR resamples runs within each task over all its drawn copies together.
  const perTask = new Map<string, number[]>();
  for (const i of drawn) {
    const k = rows[i].task;
    const l = perTask.get(k);
    if (l) l.push(i);
    else perTask.set(k, [i]);
  }
  const out: number[] = [];
  for (const l of perTask.values()) for (let k = 0; k < l.length; k++) out.push(l[below(l.length)]);
  return out;
}

export function weightedFit(rows: WeightedRow[], opts: { resamples?: number; seed?: number; C?: number } = {}): WeightedFitResult | null {
  const C = opts.C ?? 10;
  const all = rows.map((_, i) => i);
  if (new Set(rows.map((r) => r.length)).size < 2 || !bothOutcomes(rows, all)) return null;
  const fit = fitRows(rows, all, C);
  const { slope: a, intercept: b } = fit;
  const l50 = horizonAt(a, b, 0);
  const l80 = horizonAt(a, b, LOGIT80);
  if (!Number.isFinite(l50) || !Number.isFinite(l80)) return null;

  const fam = new Map<string, Map<string, number[]>>();
  rows.forEach((r, i) => {
    let tasks = fam.get(r.family);
    if (!tasks) fam.set(r.family, (tasks = new Map()));
    const l = tasks.get(r.task);
    if (l) l.push(i);
    else tasks.set(r.task, [i]);
  });
  const byFamily = [...fam.values()].map((t) => [...t.values()]);
  const rand = mulberry32(opts.seed ?? METR_SEED);
  const b50: number[] = [];
  const b80: number[] = [];
  const resamples = opts.resamples ?? 1000;
  for (let r = 0; r < resamples; r++) {
    const idx = hierarchicalResample(byFamily, rows, rand);
    if (!bothOutcomes(rows, idx)) continue;
    const f = fitRows(rows, idx, C);
    const h50 = horizonAt(f.slope, f.intercept, 0);
    const h80 = horizonAt(f.slope, f.intercept, LOGIT80);
    if (!Number.isNaN(h50)) b50.push(h50);
    if (!Number.isNaN(h80)) b80.push(h80);
  }
  const ci = (v: number[], point: number): [number, number] => {
    if (v.length === 0) return [point, point];
    const s = Float64Array.from(v).sort();
    return [percentileSorted(s, 0.025), percentileSorted(s, 0.975)];
  };
  return { slope: a, intercept: b, l50, l80, l50Ci: ci(b50, l50), l80Ci: ci(b80, l80), fits: b50.length };
}

/**
 * The METR fit over a run's summaries when they ask for it (some carry a weight or a
 * lengthValue); undefined otherwise, so native runs keep the default fit of metrics.ts.
 */
export function weightedLengthFit(
  g: SummaryColumns,
  opts: { resamples?: number; seed?: number } = {},
): { length_fit: RunMetricsJson["length_fit"]; coefficients: { slope: number; intercept: number } | null } | undefined {
  if (!g.has("weight") && !g.has("lengthValue")) return undefined;
  const rows: WeightedRow[] = [];
  for (let i = 0; i < g.n; i++) {
    if (g.selfConditioning(i) !== null) continue;
    const row = {
      length: g.value("lengthValue", i) ?? g.length[i],
      y: g.firstCorrect(i) ? 1 : 0,
      w: g.value("weight", i) ?? 1,
      family: g.clusterName(i) ?? "",
      task: String(g.itemNumber(i)), // the item: its number stands for its key within the run
    };
    if (row.length > 0 && row.w > 0) rows.push(row);
  }
  const f = weightedFit(rows, { resamples: opts.resamples, seed: opts.seed });
  if (!f) return { length_fit: null, coefficients: null };
  const r4 = (x: number) => roundTo(x, 4);
  return {
    length_fit: { l50: r4(f.l50), l50_ci: [r4(f.l50Ci[0]), r4(f.l50Ci[1])], l80: r4(f.l80), l80_ci: [r4(f.l80Ci[0]), r4(f.l80Ci[1])] },
    coefficients: { slope: f.slope, intercept: f.intercept },
  };
}
