// The simulated model checked by the real analysis: what it is configured to do is what
// Stepwise measures.
import { describe, expect, it } from "vitest";
import { analyseItem } from "../../lib/analysis/analyse";
import { FAILURE_MODES, type FailureMode, type GenerationAnalysis } from "../../lib/analysis/types";
import { NativeReader } from "../../lib/native/reader";
import { generateDataset, type GenerateOptionsInput } from "../../lib/generate/dataset";
import { demoRuns, demoRunOptions } from "../../lib/generate/demo";

interface RunResult {
  key: string;
  model: string;
  benchmark: string;
  analyses: GenerationAnalysis[];
}

/** Reads lines the way the loader does: schema validation, then analysis. */
function read(lines: Iterable<string>): RunResult[] {
  const reader = new NativeReader("generated.jsonl");
  const runs: RunResult[] = [];
  let n = 0;
  for (const l of lines) {
    const ev = reader.line(l, ++n);
    if (!ev) continue;
    if (ev.kind === "run") runs.push({ key: ev.header.key, model: ev.header.model.name, benchmark: ev.header.benchmark, analyses: [] });
    else runs[runs.length - 1].analyses.push(ev.analysis);
  }
  expect(reader.errors).toEqual([]);
  return runs;
}

function stepReliability(as: GenerationAnalysis[]): number {
  let ok = 0;
  let all = 0;
  for (const a of as) {
    for (const s of a.steps) {
      all++;
      if (s.status === "correct" || s.status === "propagated") ok++;
    }
  }
  return ok / all;
}

const perfectCases: [string, GenerateOptionsInput][] = [
  ["arith lb3 [1,10]", { benchmark: "procedural-arith", lengths: [3, 5, 25, 95], itemsPerLength: 40, seed: 21 }],
  [
    "arith lb7 [0,1]",
    { benchmark: "procedural-arith", lengths: [5, 35, 95], itemsPerLength: 40, seed: 22, lookback: 7, inputRange: [0, 1] },
  ],
  [
    "arith lb5 [10,100] integers",
    { benchmark: "procedural-arith", lengths: [15, 55], itemsPerLength: 40, seed: 23, lookback: 5, inputRange: [10, 100], decimals: 0 },
  ],
  ["arith / only", { benchmark: "procedural-arith", lengths: [25, 75], itemsPerLength: 30, seed: 24, ops: "/" }],
  ["dict-sum K=1 multi", { benchmark: "dict-sum", lengths: [5, 50], itemsPerLength: 30, seed: 25 }],
  ["dict-sum K=3 multi", { benchmark: "dict-sum", lengths: [7, 40], itemsPerLength: 30, seed: 26, k: 3 }],
  ["dict-sum single-turn", { benchmark: "dict-sum", lengths: [10, 40], itemsPerLength: 30, seed: 27, singleTurn: true, k: 2 }],
  [
    "self-conditioning",
    { benchmark: "dict-sum", selfConditioning: true, rates: [0, 0.5, 1], targetTurn: 30, itemsPerLength: 20, seed: 28 },
  ],
];

describe("simulated model, p = 1 and no failure behaviour", () => {
  it.each(perfectCases)("%s: every generation is a clean execution", (_name, opts) => {
    const [run] = read(generateDataset({ ...opts, simulateP: 1 }));
    expect(run.analyses.length).toBeGreaterThan(0);
    for (const a of run.analyses) {
      expect(a.modes).toEqual([]);
      expect(a.clean).toBe(true);
      expect(a.firstCorrect).toBe(true);
      if (a.hasSteps) {
        expect(a.firstDivergence).toBeNull();
        expect(a.exactStep).toBe(true);
      }
    }
  });

  it("analyseItem agrees on the perfect preset", () => {
    const lines = [...generateDataset({ benchmark: "procedural-arith", lengths: [15], itemsPerLength: 10, seed: 1, simulate: "perfect" })];
    const header = JSON.parse(lines[0]);
    for (const l of lines.slice(1)) {
      const item = { epoch: 0, ...JSON.parse(l) };
      expect(analyseItem(header, item).clean).toBe(true);
    }
  });
});

describe("simulated model, step reliability", () => {
  it.each([
    ["procedural-arith", 0.97],
    ["procedural-arith", 0.9],
    ["dict-sum", 0.95],
  ] as const)("%s at p = %f: measured p̂ is close to p", (benchmark, p) => {
    const [run] = read(generateDataset({ benchmark, lengths: [5, 25, 55, 95], itemsPerLength: 60, seed: 31, simulateP: p }));
    const measured = stepReliability(run.analyses);
    expect(Math.abs(measured - p)).toBeLessThan(0.012);
    // slips only: no other failure mode appears
    for (const a of run.analyses) expect(a.modes.filter((m) => m !== "slip")).toEqual([]);
  });

  it("errors propagate: later steps computed from a wrong value are `propagated`", () => {
    const [run] = read(generateDataset({ benchmark: "procedural-arith", lengths: [35], itemsPerLength: 80, seed: 32, simulateP: 0.97 }));
    const statuses = run.analyses.flatMap((a) => a.steps.map((s) => s.status));
    expect(statuses.filter((s) => s === "propagated").length).toBeGreaterThan(statuses.filter((s) => s === "slip").length);
  });

  it("epochs give distinct generations of the same items", () => {
    const [run] = read(
      generateDataset({ benchmark: "procedural-arith", lengths: [25], itemsPerLength: 10, seed: 33, simulateP: 0.9, epochs: 3 }),
    );
    expect(run.analyses).toHaveLength(30);
  });
});

describe("demo content", () => {
  const runs = read(demoRuns());

  it("is small, loads without errors, and covers both families and five models", () => {
    const generations = runs.reduce((n, r) => n + r.analyses.length, 0);
    expect(generations).toBeLessThanOrEqual(4000);
    expect(generations).toBeGreaterThan(2000);
    expect(runs).toHaveLength(demoRunOptions().length);
    expect(new Set(runs.map((r) => r.model)).size).toBe(5);
    expect(new Set(runs.map((r) => r.key)).size).toBe(runs.length);
    expect(new Set(runs.map((r) => r.benchmark))).toEqual(new Set(["procedural-arith", "dict-sum"]));
  });

  it("shows every failure mode", () => {
    const seen = new Set<FailureMode>();
    for (const r of runs) for (const a of r.analyses) for (const m of a.modes) seen.add(m);
    expect([...seen].sort()).toEqual([...FAILURE_MODES].sort());
  });

  it("self-conditioning: non-thinking models fall with the induced error rate, the thinking model stays flat", () => {
    const sc = runs.filter((r) => r.analyses.some((a) => a.selfConditioning));
    expect(sc).toHaveLength(5);
    for (const r of sc) {
      const by = new Map<number, [number, number]>();
      for (const a of r.analyses) {
        const k = a.selfConditioning!.inducedErrorRate;
        const [n, c] = by.get(k) ?? [0, 0];
        by.set(k, [n + 1, c + (a.lastCorrect ? 1 : 0)]);
      }
      const acc = (rate: number) => by.get(rate)![1] / by.get(rate)![0];
      if (/thinking/i.test(r.model)) expect(Math.abs(acc(0) - acc(1))).toBeLessThan(0.15);
      else expect(acc(0) - acc(1)).toBeGreaterThan(0.2);
    }
  });

  it("stronger profiles are more accurate on arith", () => {
    const arith = runs.filter((r) => r.key.includes("lb3-r1_10-mixed"));
    const acc = (model: string) => {
      const r = arith.find((x) => x.model === model)!;
      return r.analyses.filter((a) => a.firstCorrect).length / r.analyses.length;
    };
    expect(acc("Sim-Gamma-70B-Thinking")).toBeGreaterThan(acc("Sim-Alpha-8B"));
    expect(acc("Sim-Alpha-8B")).toBeGreaterThan(acc("Sim-Delta-2B"));
  });
});
