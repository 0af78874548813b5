// RunExtras: numbers kept beside the §6 JSON for the views (failure modes per length, pass@k,
// the p̂^i prediction, usage totals, dict-sum per-turn curves).
import { FAILURE_MODES, type CurvePoint, type FailureMode, type GenerationSummary, type RunExtras, type RunHeader } from "./types";
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

const zeroModes = () => Object.fromEntries(FAILURE_MODES.map((m) => [m, 0])) as Record<FailureMode, number>;

export function computeExtras(header: RunHeader, summaries: GenerationSummary[], ctx: ExtrasContext): RunExtras {
  const byLen = new Map<number, { n: number; modes: Record<FailureMode, number> }>();
  let clean = 0;
  let exact = 0;
  let maxLength = 0;
  let anyUsage = false;
  const usage = { prompt_tokens: 0, completion_tokens: 0, cost_usd: 0 };
  let latSum = 0;
  let latN = 0;
  for (const g of summaries) {
    const e = byLen.get(g.length) ?? { n: 0, modes: zeroModes() };
    e.n++;
    FAILURE_MODES.forEach((m, b) => (g.modes & (1 << b) ? e.modes[m]++ : 0));
    byLen.set(g.length, e);
    if (g.clean) clean++;
    if (g.exactStep) exact++;
    maxLength = Math.max(maxLength, g.length);
    if (g.promptTokens !== null || g.completionTokens !== null || g.latencyMs !== null || g.costUsd !== null) anyUsage = true;
    usage.prompt_tokens += g.promptTokens ?? 0;
    usage.completion_tokens += g.completionTokens ?? 0;
    usage.cost_usd += g.costUsd ?? 0;
    if (g.latencyMs !== null) {
      latSum += g.latencyMs;
      latN++;
    }
  }
  return {
    modes_by_length: [...byLen.entries()].sort((a, b) => a[0] - b[0]).map(([length, e]) => ({ length, n: e.n, modes: e.modes })),
    pass_at_k: passAtKRows(summaries),
    predicted_task_accuracy:
      ctx.pHat === null || !ctx.taskCurve ? null : ctx.taskCurve.map((p) => ({ step: p.step, n: p.n, accuracy: r6(ctx.pHat! ** p.step) })),
    length_fit_coefficients: ctx.coefficients,
    length_fit_bootstrap_fits: ctx.coefficients ? ctx.fitsUsed : null,
    max_length: maxLength,
    clean_executions: clean,
    exact_step_executions: exact,
    usage: anyUsage ? { ...usage, latency_ms_mean: latN ? latSum / latN : null } : null,
    per_turn: header.benchmark === "dict-sum" ? perTurn(header, summaries) : null,
  };
}

/** pass@k and pass^k over items with at least k generations (first-answer correctness). */
function passAtKRows(summaries: GenerationSummary[]): RunExtras["pass_at_k"] {
  const by = new Map<string, { n: number; c: number }>();
  for (const g of summaries) {
    const e = by.get(g.itemKey) ?? { n: 0, c: 0 };
    e.n++;
    if (g.firstCorrect) e.c++;
    by.set(g.itemKey, e);
  }
  const maxN = maxOf([...by.values()].map((e) => e.n), 0);
  if (maxN <= 1) return null;
  const rows: NonNullable<RunExtras["pass_at_k"]> = [];
  for (let k = 1; k <= maxN; k++) {
    let at = 0;
    let hat = 0;
    let items = 0;
    for (const e of by.values()) {
      if (e.n < k) continue;
      items++;
      at += passAtK(e.n, e.c, k);
      hat += passHatK(e.n, e.c, k);
    }
    rows.push({ k, pass_at_k: r6(at / items), pass_hat_k: r6(hat / items) });
  }
  return rows;
}

/** dict-sum turn curves: turn t's status is that of its last step; n = generations with ≥ t turns. */
function perTurn(header: RunHeader, summaries: GenerationSummary[]): RunExtras["per_turn"] {
  const K = typeof header.variant.K === "number" && header.variant.K >= 1 ? header.variant.K : 1;
  const gens = summaries.filter((g) => g.statuses.length > 0);
  if (gens.length === 0) return null;
  const tmax = maxOf(gens.map((g) => Math.ceil(g.length / K)));
  const n = new Float64Array(tmax + 1);
  const ok = new Float64Array(tmax + 1);
  const alive = new Float64Array(tmax + 1);
  for (const g of gens) {
    const T = Math.ceil(g.length / K);
    for (let t = 1; t <= T; t++) {
      const e = Math.min(t * K, g.length);
      n[t]++;
      const c = g.statuses[e - 1];
      if (c === "c" || c === "p") ok[t]++;
      if (g.firstDivergence === null || g.firstDivergence > e) alive[t]++;
    }
  }
  const task_accuracy: CurvePoint[] = [];
  const turn_accuracy: CurvePoint[] = [];
  for (let t = 1; t <= tmax; t++) {
    task_accuracy.push({ step: t, n: n[t], accuracy: r6(alive[t] / n[t]) });
    turn_accuracy.push({ step: t, n: n[t], accuracy: r6(ok[t] / n[t]) });
  }
  return { K, task_accuracy, turn_accuracy };
}
