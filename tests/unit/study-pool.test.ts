import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../lib/analysis/stats";
import { pivotStudy, StudyParamError, type LengthCell, type StudyRunInfo } from "../../lib/study/pivot";
import { binomialDraw, poolRates, poolRatios, poolRunValues, ratioEstimate } from "../../lib/study/pool";
import { parseStudyParams, studyHref } from "../../lib/url/study";

// Every pooling rule of the study view against numbers computed by hand (docs/study.md).

describe("pooling rules", () => {
  it("one model: its pooled rate with a Wilson interval", () => {
    const p = poolRates([{ k: 8, n: 10 }]);
    expect(p.method).toBe("wilson");
    expect(p.value).toBe(0.8);
    // Wilson 95%: centre (0.8 + 1.96²/20)/(1 + 1.96²/10) = 0.71674, half-width 0.22658
    expect(p.ci![0]).toBeCloseTo(0.49016, 4);
    expect(p.ci![1]).toBeCloseTo(0.94332, 4);
  });

  it("several models: each model weighted equally, not each generation", () => {
    const p = poolRates([
      { k: 90, n: 100 },
      { k: 1, n: 10 },
    ]);
    expect(p.method).toBe("bootstrap");
    expect(p.value).toBeCloseTo(0.5, 12); // (0.9 + 0.1) / 2, where pooled generations would say 91/110 = 0.827
    expect(p.ci![0]).toBeLessThan(0.5);
    expect(p.ci![1]).toBeGreaterThan(0.5);
  });

  it("the bootstrap resamples models: two models at 0 and 1 give the interval [0, 1]", () => {
    // drawn pairs: both at 0 (1/4), one each (1/2), both at 1 (1/4): the 2.5% and 97.5% points are 0 and 1
    const p = poolRates([
      { k: 0, n: 500 },
      { k: 500, n: 500 },
    ]);
    expect(p.value).toBe(0.5);
    expect(p.ci).toEqual([0, 1]);
  });

  it("the bootstrap resamples items inside a model: all-correct models have no spread", () => {
    expect(
      poolRates([
        { k: 10, n: 10 },
        { k: 20, n: 20 },
      ]).ci,
    ).toEqual([1, 1]);
  });

  it("is deterministic (fixed seed)", () => {
    const models = [
      { k: 30, n: 50 },
      { k: 12, n: 40 },
      { k: 70, n: 80 },
    ];
    expect(poolRates(models)).toEqual(poolRates(models));
  });

  it("step accuracy: a ratio of sums with a linearised standard error over generations", () => {
    // generations (c, t) = (5, 10) and (10, 10): R = 15/20 = 0.75; residuals ∓2.5, Σ² = 12.5;
    // var = 12.5 / 20² × 2/1 = 0.0625, se = 0.25
    const r = { n: 2, c: 15, t: 20, cc: 125, ct: 150, tt: 200 };
    const e = ratioEstimate(r)!;
    expect(e.value).toBe(0.75);
    expect(e.se).toBeCloseTo(0.25, 12);
    const p = poolRatios([r]);
    expect(p.method).toBe("ratio");
    expect(p.ci![0]).toBeCloseTo(0.75 - 1.959964 * 0.25, 5);
    expect(p.ci![1]).toBe(1);
  });

  it("per-run values: one run keeps its stored interval; several are bootstrapped over runs", () => {
    expect(poolRunValues([[{ value: 23, ci: [19, 27] }]])).toEqual({ value: 23, ci: [19, 27], method: "stored" });
    // one model, runs at 10 and 20: resampled means 10, 15, 20 with 1/4, 1/2, 1/4
    const one = poolRunValues([
      [
        { value: 10, ci: null },
        { value: 20, ci: null },
      ],
    ]);
    expect(one.value).toBe(15);
    expect(one.ci).toEqual([10, 20]);
    // two models: mean of model means (10 and (20 + 40)/2 = 30) = 20, not the mean of runs (23.3)
    const two = poolRunValues([
      [{ value: 10, ci: null }],
      [
        { value: 20, ci: null },
        { value: 40, ci: null },
      ],
    ]);
    expect(two.value).toBe(20);
  });

  it("binomial draws have mean n·p (exact below 65 trials, normal above)", () => {
    const rng = mulberry32(7);
    for (const [n, p] of [
      [20, 0.3],
      [1000, 0.97],
    ] as const) {
      let s = 0;
      for (let i = 0; i < 4000; i++) s += binomialDraw(n, p, rng);
      expect(Math.abs(s / 4000 - n * p)).toBeLessThan(0.05 * n * p);
    }
    expect(binomialDraw(50, 0, rng)).toBe(0);
    expect(binomialDraw(50, 1, rng)).toBe(50);
  });
});

const run = (key: string, model: string, lookback: number, extra: Partial<StudyRunInfo> = {}): StudyRunInfo => ({
  key,
  model,
  family: "F",
  paramsB: 8,
  thinking: false,
  factors: { lookback, size: 8, thinking: "no thinking" },
  h50: null,
  ...extra,
});
const cell = (r: string, length: number, n: number, first: number, extra: Partial<LengthCell> = {}): LengthCell => ({
  run: r,
  length,
  n,
  firstCorrect: first,
  lastCorrect: first,
  exactStep: 0,
  modes: {},
  steps: { n: 0, t: 0, c: 0, cc: 0, ct: 0, tt: 0 },
  ...extra,
});

describe("pivot", () => {
  const runs = [run("a", "M1", 2), run("b", "M2", 2), run("c", "M1", 7), run("d", "M1", 2)];
  const cells = [cell("a", 5, 10, 8), cell("a", 15, 10, 4), cell("b", 5, 20, 10), cell("c", 5, 10, 2), cell("d", 5, 10, 6)];

  it("x = a run-level factor, series = all: mean over models, each model's runs pooled first", () => {
    const [all] = pivotStudy({ x: "lookback", series: "all", metric: "first_accuracy", runs, lengthCells: cells, turnCells: [] });
    expect(all.name).toBe("all models");
    const [lb2, lb7] = all.points;
    // M1 at look-back 2: runs a and d, (8 + 4 + 6) / (10 + 10 + 10) = 0.6; M2: 10/20 = 0.5
    expect(lb2.x).toBe(2);
    expect(lb2.value).toBeCloseTo(0.55, 12);
    expect(lb2.n).toBe(50);
    expect(lb2.models).toBe(2);
    expect(lb2.runs).toEqual(["a", "b", "d"]);
    // look-back 7: one model, Wilson of 2/10
    expect(lb7).toMatchObject({ x: 7, value: 0.2, n: 10, models: 1, method: "wilson", runs: ["c"] });
  });

  it("x = length, series = model: one series per model, counts summed over its runs", () => {
    const out = pivotStudy({ x: "length", series: "model", metric: "first_accuracy", runs, lengthCells: cells, turnCells: [] });
    expect(out.map((s) => s.name)).toEqual(["M1", "M2"]);
    const m1 = out[0].points;
    expect(m1.map((p) => p.x)).toEqual([5, 15]);
    expect(m1[0]).toMatchObject({ value: 16 / 30, n: 30, method: "wilson" });
  });

  it("failure-mode and under-execution rates read the mode counts", () => {
    const c = [cell("a", 5, 10, 8, { modes: { "under-executed": 3, "premature-answer": 1 } })];
    const under = pivotStudy({ x: "length", series: "all", metric: "under_execution_rate", runs, lengthCells: c, turnCells: [] });
    expect(under[0].points[0].value).toBeCloseTo(0.3, 12);
    const prem = pivotStudy({ x: "length", series: "all", metric: "mode:premature-answer", runs, lengthCells: c, turnCells: [] });
    expect(prem[0].points[0].value).toBeCloseTo(0.1, 12);
  });

  it("h50: one value per run, never split by a per-generation factor", () => {
    const hr = [run("a", "M1", 2, { h50: { value: 20, ci: [15, 25] } }), run("c", "M1", 7, { h50: { value: 8, ci: [6, 10] } })];
    const out = pivotStudy({ x: "lookback", series: "model", metric: "h50", runs: hr, lengthCells: [], turnCells: [] });
    expect(out[0].points).toMatchObject([
      { x: 2, value: 20, ci: [15, 25], n: 1, method: "stored" },
      { x: 7, value: 8, ci: [6, 10], n: 1 },
    ]);
    expect(() => pivotStudy({ x: "length", series: "model", metric: "h50", runs: hr, lengthCells: [], turnCells: [] })).toThrow(
      StudyParamError,
    );
  });

  it("h50: a point with a censored run behind it is a lower bound, and says so", () => {
    const hr = [
      run("a", "M1", 2, { h50: { value: 40, ci: [30, 40], censored: true } }),
      run("b", "M2", 2, { h50: { value: 12, ci: [9, 15], censored: false } }),
      run("c", "M1", 7, { h50: { value: 8, ci: [6, 10], censored: false } }),
    ];
    const [all] = pivotStudy({ x: "lookback", series: "all", metric: "h50", runs: hr, lengthCells: [], turnCells: [] });
    expect(all.points.map((p) => [p.x, p.value, p.censored])).toEqual([
      [2, 26, true],
      [7, 8, false],
    ]);
    // rates are never censored
    const rates = pivotStudy({ x: "lookback", series: "all", metric: "first_accuracy", runs, lengthCells: cells, turnCells: [] });
    expect(rates[0].points.every((p) => p.censored === false)).toBe(true);
  });

  it("per turn: task accuracy from the stored step counts", () => {
    const out = pivotStudy({
      x: "turn",
      series: "model",
      metric: "task_accuracy",
      runs,
      lengthCells: [],
      turnCells: [
        { run: "a", turn: 1, n: 10, taskCorrect: 9, stepCorrect: 10 },
        { run: "a", turn: 2, n: 10, taskCorrect: 7, stepCorrect: 8 },
      ],
    });
    expect(out[0].points.map((p) => p.value)).toEqual([0.9, 0.7]);
    expect(() => pivotStudy({ x: "turn", series: "model", metric: "first_accuracy", runs, lengthCells: [], turnCells: [] })).toThrow(
      StudyParamError,
    );
  });
});

describe("study URL", () => {
  it("round-trips through its canonical link, defaults left out", () => {
    const p = parseStudyParams({
      benchmark: "procedural-arith",
      x: "lookback",
      series: "all",
      metric: "mode:slip",
      models: "A,B",
      minSize: "7",
    });
    expect(parseStudyParams(new URLSearchParams(studyHref(p).split("?")[1]))).toEqual(p);
    expect(studyHref(parseStudyParams({}))).toBe("/study");
  });
  it("bad values fall back to defaults field by field", () => {
    const p = parseStudyParams({ x: "nope", metric: "mode:nope", series: "all" });
    expect(p).toMatchObject({ x: "length", metric: "first_accuracy", series: "all" });
  });
});
