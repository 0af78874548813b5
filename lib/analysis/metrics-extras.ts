// RunExtras: numbers kept beside the §6 JSON for the views (failure modes per length, pass@k,
// the p̂^i prediction, usage totals, dict-sum per-turn curves).
import { countModes, emptyModeCounts } from "./failure-modes";
import type { CurvePoint, FailureMode, RunExtras, RunHeader } from "./types";
import type { SummaryColumns } from "./summary-columns";
import { roundTo } from "./numbers";
import { maxOf, passAtK, passHatK } from "./stats";

const r6 = (x: number) => roundTo(x, 6);

export interface ExtrasContext {
  pHat: number | null;
  taskCurve: CurvePoint[] | null;
  coefficients: { slope: number; intercept: number } | null;
  lmax: number;
  fitsUsed: number;
}

export function computeExtras(header: RunHeader, g: SummaryColumns, ctx: ExtrasContext): RunExtras {
  const byLen = new Map<number, { n: number; modes: Record<FailureMode, number> }>();
  let clean = 0;
  let exact = 0;
  let maxLength = 0;
  for (let i = 0; i < g.n; i++) {
    const length = g.length[i];
    const e = byLen.get(length) ?? { n: 0, modes: emptyModeCounts() };
    e.n++;
    countModes(e.modes, g.modes[i]);
    byLen.set(length, e);
    if (g.clean(i)) clean++;
    if (g.exactStep(i)) exact++;
    maxLength = Math.max(maxLength, length);
  }
  const u = g.usage;
  return {
    modes_by_length: [...byLen.entries()].sort((a, b) => a[0] - b[0]).map(([length, e]) => ({ length, n: e.n, modes: e.modes })),
    pass_at_k: passAtKRows(g),
    predicted_task_accuracy:
      ctx.pHat === null || !ctx.taskCurve ? null : ctx.taskCurve.map((p) => ({ step: p.step, n: p.n, accuracy: r6(ctx.pHat! ** p.step) })),
    length_fit_coefficients: ctx.coefficients,
    length_fit_bootstrap_fits: ctx.coefficients ? ctx.fitsUsed : null,
    max_length: maxLength,
    clean_executions: clean,
    exact_step_executions: exact,
    usage: u.any
      ? {
          prompt_tokens: u.promptTokens,
          completion_tokens: u.completionTokens,
          cost_usd: u.costUsd,
          latency_ms_mean: u.latencyCount ? u.latencySum / u.latencyCount : null,
        }
      : null,
    per_turn: header.benchmark === "dict-sum" ? perTurn(header, g) : null,
  };
}

/** pass@k and pass^k over items with at least k generations (first-answer correctness); each row says over how many. */
function passAtKRows(g: SummaryColumns): RunExtras["pass_at_k"] {
  // every item has one generation at least: as many items as generations, then one each (and
  // no counts by item, 8 bytes an item, at a big run's end)
  if (g.n === g.items) return null;
  const gens = new Int32Array(g.items);
  const correct = new Int32Array(g.items);
  for (let i = 0; i < g.n; i++) {
    const item = g.itemNumber(i);
    gens[item]++;
    if (g.firstCorrect(i)) correct[item]++;
  }
  const maxN = maxOf(gens, 0);
  if (maxN <= 1) return null;
  const rows: NonNullable<RunExtras["pass_at_k"]> = [];
  for (let k = 1; k <= maxN; k++) {
    let at = 0;
    let hat = 0;
    let items = 0;
    for (let it = 0; it < gens.length; it++) {
      if (gens[it] < k) continue;
      items++;
      at += passAtK(gens[it], correct[it], k);
      hat += passHatK(gens[it], correct[it], k);
    }
    rows.push({ k, pass_at_k: r6(at / items), pass_hat_k: r6(hat / items), items });
  }
  return rows;
}

/** dict-sum turn curves: turn t's status is that of its last step; n = generations with ≥ t turns. */
function perTurn(header: RunHeader, g: SummaryColumns): RunExtras["per_turn"] {
  const K = typeof header.variant.K === "number" && header.variant.K >= 1 ? header.variant.K : 1;
  let tmax = 0;
  let any = false;
  for (let i = 0; i < g.n; i++) {
    if (!g.hasSteps(i)) continue;
    any = true;
    tmax = Math.max(tmax, Math.ceil(g.length[i] / K));
  }
  if (!any) return null;
  const n = new Float64Array(tmax + 1);
  const alive = new Float64Array(tmax + 1);
  for (let i = 0; i < g.n; i++) {
    if (!g.hasSteps(i)) continue;
    const length = g.length[i];
    const fd = g.firstDiv[i];
    const T = Math.ceil(length / K);
    for (let t = 1; t <= T; t++) {
      n[t]++;
      if (fd < 0 || fd > Math.min(t * K, length)) alive[t]++;
    }
  }
  // Turn t of a generation ends at step min(tK, L): step tK of those with tK ≤ L, step L of those
  // whose last turn it is with L < tK (StepTotals keeps both sums).
  const { okByStepInLength, okLastByLength } = g.steps;
  const ok = (t: number) => {
    let sum = okByStepInLength[t * K - 1] ?? 0;
    for (let L = (t - 1) * K + 1; L < t * K; L++) sum += okLastByLength[L] ?? 0;
    return sum;
  };
  const task_accuracy: CurvePoint[] = [];
  const turn_accuracy: CurvePoint[] = [];
  for (let t = 1; t <= tmax; t++) {
    task_accuracy.push({ step: t, n: n[t], accuracy: r6(alive[t] / n[t]) });
    turn_accuracy.push({ step: t, n: n[t], accuracy: r6(ok(t) / n[t]) });
  }
  return { K, task_accuracy, turn_accuracy };
}
