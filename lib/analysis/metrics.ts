// Run-level metrics (SPEC §4, §6 and examples/README.md "Metrics"). Input is the run's
// summaries as columns (summary-columns.ts), so a run of a million generations is aggregated
// without its texts or an object per generation.
import {
  type AccuracyAtLength,
  type CurvePoint,
  type GenerationSummary,
  type RunExtras,
  type RunHeader,
  type RunMetricsJson,
  type SelfConditioningMetrics,
} from "./types";
import { countModes, emptyModeCounts } from "./failure-modes";
import { SummaryColumns } from "./summary-columns";
import { bootstrap } from "./bootstrap";
import { horizonFrom, newCurveCounts, walkTaskCurve } from "./horizon";
import { roundTo } from "./numbers";
import { logisticFit, ols, wilson } from "./stats";
import { computeExtras } from "./metrics-extras";
import { slopeBootstrapCi } from "./selfcond-ci";
import { weightedLengthFit } from "./weighted-fit";

const r6 = (x: number) => roundTo(x, 6);
const r4 = (x: number) => roundTo(x, 4);

export interface MetricsOptions {
  /** bootstrap seed (default BOOTSTRAP_SEED) and resample count (default 1,000) */
  seed?: number;
  resamples?: number;
}

export function computeRunMetrics(
  header: RunHeader,
  summaries: SummaryColumns | readonly GenerationSummary[],
  opts: MetricsOptions = {},
): { metrics: RunMetricsJson; extras: RunExtras } {
  const g = summaries instanceof SummaryColumns ? summaries : SummaryColumns.from(summaries);
  const nGen = g.n;

  const failure_modes = emptyModeCounts();
  for (let i = 0; i < nGen; i++) countModes(failure_modes, g.modes[i]);

  // ---- generations with a step trace: curves, horizons, reliability, histogram
  let stepGens = 0;
  let lmax = 0;
  for (let i = 0; i < nGen; i++) {
    if (!g.hasSteps(i)) continue;
    stepGens++;
    if (g.length[i] > lmax) lmax = g.length[i];
  }
  let task_accuracy: CurvePoint[] | null = null;
  let step_accuracy: CurvePoint[] | null = null;
  let reliability: RunMetricsJson["reliability"] = null;
  let histogram: RunMetricsJson["first_divergence_histogram"] = null;
  let pHat: number | null = null;
  const curve = newCurveCounts(lmax);
  if (stepGens > 0) {
    const hist = new Float64Array(lmax + 1);
    for (let i = 0; i < nGen; i++) {
      if (!g.hasSteps(i)) continue;
      curve.byLength[g.length[i]]++;
      const fd = g.firstDiv[i];
      if (fd >= 0) {
        curve.byFirstDiv[fd]++;
        curve.divByLength[g.length[i]]++;
        hist[fd]++;
      }
    }
    // step i's locally correct generations, i from 1 (steps past lmax, in traces longer than their length, count only in p̂)
    const { okByStep, localTotal, stepsTotal } = g.steps;
    const local = new Float64Array(lmax + 1);
    local.set(okByStep.subarray(0, lmax), 1);
    task_accuracy = [];
    step_accuracy = [];
    walkTaskCurve(curve, (i, n, a) => {
      task_accuracy!.push({ step: i, n, accuracy: r6(a) });
      step_accuracy!.push({ step: i, n, accuracy: r6(local[i] / n) });
    });
    pHat = localTotal / stepsTotal;
    // Missing steps count as not locally correct; p̂ = 1 predicts an unbounded horizon (null).
    reliability = { p: r6(pHat), predicted_horizon: pHat >= 1 ? null : r4(Math.log(0.5) / Math.log(pHat)) };
    histogram = [];
    for (let f = 1; f <= lmax; f++) if (hist[f] > 0) histogram.push({ step: f, count: hist[f] });
  }

  // ---- length fit on first-answer correctness, one row per generation with weight 1
  // read per generation three times (the fit's lengths and counts, the bootstrap's classes): the column looked up once
  const selfConditioned = g.has("scRate");
  const inFit = (i: number) => !selfConditioned || g.value("scRate", i) === null;
  const fitLengthSet = new Set<number>();
  let fitN = 0;
  for (let i = 0; i < nGen; i++) {
    if (!inFit(i)) continue;
    fitLengthSet.add(g.length[i]);
    fitN++;
  }
  const fitLengths = [...fitLengthSet].sort((a, b) => a - b);
  const succ = new Float64Array(fitLengths.length);
  const tot = new Float64Array(fitLengths.length);
  // each length's place in fitLengths, by length (lengths are whole numbers ≥ 0)
  const lenPos = new Int32Array((fitLengths.at(-1) ?? 0) + 1);
  fitLengths.forEach((L, i) => (lenPos[L] = i));
  const fitLengthIdx = (i: number) => (inFit(i) ? lenPos[g.length[i]] : -1);
  for (let i = 0; i < nGen; i++) {
    const li = fitLengthIdx(i);
    if (li < 0) continue;
    tot[li]++;
    if (g.firstCorrect(i)) succ[li]++;
  }
  const S = succ.reduce((a, b) => a + b, 0);
  const withFit = fitLengths.length >= 2 && S > 0 && S < fitN;
  let coefficients: { slope: number; intercept: number } | null = null;
  if (withFit) {
    const fit = logisticFit(Float64Array.from(fitLengths, Math.log2), succ, tot);
    coefficients = { slope: fit.slope, intercept: fit.intercept };
  }

  // ---- bootstrap (skipped when nothing needs an interval)
  const levels = [0.5, 0.8];
  const point = stepGens > 0 ? levels.map((s) => horizonFrom(curve, s)) : null;
  let boot: ReturnType<typeof bootstrap> | null = null;
  if (point || withFit) {
    boot = bootstrap(
      {
        nItems: g.items,
        nGen,
        genItem: (i) => g.itemNumber(i),
        stepLength: (i) => (g.hasSteps(i) ? g.length[i] : 0),
        firstDiv: (i) => (g.hasSteps(i) ? Math.max(g.firstDiv[i], 0) : 0),
        fitLengthIdx,
        firstCorrect: (i) => (g.firstCorrect(i) ? 1 : 0),
        fitLengths,
        lmax,
        itemCluster: clusterIndex(g),
        horizonLevels: point ? levels : [],
        withFit,
      },
      opts.resamples,
      opts.seed,
    );
  }
  const horizon = (k: number): RunMetricsJson["horizon"] =>
    point && boot
      ? { s: levels[k], steps: point[k].steps, censored: point[k].censored, ci: [r4(boot.horizonCi[k][0]), r4(boot.horizonCi[k][1])] }
      : null;

  let length_fit: RunMetricsJson["length_fit"] = null;
  if (coefficients && boot?.l50Ci && boot.l80Ci) {
    const { slope: a, intercept: b } = coefficients;
    const l50 = 2 ** (-b / a);
    const l80 = 2 ** ((Math.log(4) - b) / a);
    if (Number.isFinite(l50) && Number.isFinite(l80)) {
      length_fit = {
        l50: r4(l50),
        l50_ci: [r4(boot.l50Ci[0]), r4(boot.l50Ci[1])],
        l80: r4(l80),
        l80_ci: [r4(boot.l80Ci[0]), r4(boot.l80Ci[1])],
      };
    }
  }

  // Imported runs with weights or non-step lengths (METR) get METR's fit instead (weighted-fit.ts).
  const weighted = weightedLengthFit(g, opts);
  if (weighted) ({ length_fit, coefficients } = weighted);

  const metrics: RunMetricsJson = {
    run: header.key,
    model: header.model.name,
    benchmark: header.benchmark,
    variant: header.variant.name,
    items: g.items,
    generations: nGen,
    accuracy_by_length: accuracyByLength(g),
    task_accuracy,
    step_accuracy,
    horizon: horizon(0),
    horizon_80: horizon(1),
    reliability,
    length_fit,
    failure_modes,
    first_divergence_histogram: histogram,
    self_conditioning: selfConditioning(g),
  };
  const extras = computeExtras(header, g, { pHat, taskCurve: task_accuracy, coefficients, lmax, fitsUsed: boot?.fitsUsed ?? 0 });
  if (metrics.self_conditioning) extras.self_conditioning_slope_ci = slopeBootstrapCi(metrics.self_conditioning.points);
  return { metrics, extras };
}

function accuracyByLength(g: SummaryColumns): AccuracyAtLength[] {
  const by = new Map<number, { n: number; first: number; last: number }>();
  for (let i = 0; i < g.n; i++) {
    const e = by.get(g.length[i]) ?? { n: 0, first: 0, last: 0 };
    e.n++;
    if (g.firstCorrect(i)) e.first++;
    if (g.lastCorrect(i)) e.last++;
    by.set(g.length[i], e);
  }
  return [...by.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([length, e]) => {
      const fc = wilson(e.first, e.n);
      const lc = wilson(e.last, e.n);
      return {
        length,
        n: e.n,
        first_correct: e.first,
        first_accuracy: r6(e.first / e.n),
        first_ci: [r6(fc[0]), r6(fc[1])],
        last_correct: e.last,
        last_accuracy: r6(e.last / e.n),
        last_ci: [r6(lc[0]), r6(lc[1])],
      };
    });
}

/** Items grouped by cluster (variant) for the hierarchical bootstrap; null unless ≥ 2 clusters. */
function clusterIndex(g: SummaryColumns): Int32Array | null {
  if (g.clusterNames.length === 0) return null;
  const ids = new Map<string, number>();
  const out = new Int32Array(g.items);
  for (let i = 0; i < g.n; i++) {
    const key = g.clusterName(i) ?? "";
    let c = ids.get(key);
    if (c === undefined) ids.set(key, (c = ids.size));
    out[g.itemNumber(i)] = c;
  }
  return ids.size >= 2 ? out : null;
}

function selfConditioning(g: SummaryColumns): SelfConditioningMetrics | null {
  if (!g.has("scRate")) return null;
  const turns = new Map<number, number>();
  const by = new Map<number, { n: number; correct: number }>();
  for (let i = 0; i < g.n; i++) {
    const sc = g.selfConditioning(i);
    if (!sc) continue;
    const { inducedErrorRate: rate, targetTurn } = sc;
    turns.set(targetTurn, (turns.get(targetTurn) ?? 0) + 1);
    const e = by.get(rate) ?? { n: 0, correct: 0 };
    e.n++;
    if (g.firstCorrect(i)) e.correct++;
    by.set(rate, e);
  }
  if (by.size === 0) return null;
  // One target turn per run in practice; with several, report the most common one.
  const target_turn = [...turns.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0];
  const points = [...by.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([rate, e]) => ({ induced_error_rate: rate, n: e.n, correct: e.correct, accuracy: r6(e.correct / e.n) }));
  const { slope } = ols(
    points.map((p) => p.induced_error_rate),
    points.map((p) => p.correct / p.n),
  );
  return { target_turn, points, slope: slope === null ? null : r6(slope) };
}
