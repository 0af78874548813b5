// Pure rules of the importers (issue 16): what an Inspect score value means, which score
// --metric names, step counts in a dict score, lm-eval log-likelihood pairs and date stamps.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { targetText } from "../../lib/import/inspect-sample";
import { scoreChoice, scoreVerdict, stepCounts, stepTrace } from "../../lib/import/inspect-scores";
import { continuation, llPair } from "../../lib/import/lmeval-answers";
import { stampToIso } from "../../lib/import/lmeval-files";

describe("Inspect score values", () => {
  it("C/I, booleans and exactly 0/1 are correctness; any other value in [0, 1] is refused unless thresholded (property)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
        (v, t) => {
          const r = scoreVerdict(v, "win_rate", t);
          if (t !== undefined) expect(r).toEqual({ correct: v >= t });
          else if (v === 0 || v === 1) expect(r).toEqual({ correct: v === 1 });
          else expect(r).toMatchObject({ error: expect.stringMatching(/'win_rate' is continuous .*--threshold/), global: true });
        },
      ),
    );
    expect(scoreVerdict("C", "m")).toEqual({ correct: true });
    expect(scoreVerdict("P", "m")).toEqual({ correct: false });
    expect(scoreVerdict(true, "m")).toEqual({ correct: true });
    expect(scoreVerdict(7, "Total Correct")).toMatchObject({ error: expect.stringMatching(/is 7, not a correctness/) });
    expect(scoreVerdict({ a: 1 }, "s")).toMatchObject({ error: expect.stringMatching(/is a dict \(keys: a\)/) });
  });

  it("--metric names a scorer, a listed key of a dict scorer, or scorer.key", () => {
    const listed = [
      { name: "Problem Correctness", scorer: "step_scorer" },
      { name: "Total Steps", scorer: "step_scorer" },
    ];
    const scores = { step_scorer: { value: { "Problem Correctness": 1, "Total Steps": 7 } }, match: { value: "C" } };
    expect(scoreChoice(undefined, listed, scores)).toEqual({ scorer: "step_scorer", key: "Problem Correctness" });
    expect(scoreChoice("Problem Correctness", listed, scores)).toEqual({ scorer: "step_scorer", key: "Problem Correctness" });
    expect(scoreChoice("step_scorer.Total Steps", listed, scores)).toEqual({ scorer: "step_scorer", key: "Total Steps" });
    expect(scoreChoice("match", listed, scores)).toEqual({ scorer: "match", key: null });
    expect(scoreChoice("nope", listed, scores)).toMatch(/no score from scorer 'nope'/);
  });

  it("keeps step counts of a dict score, reads step traces and targets", () => {
    expect(stepCounts({ "Problem Correctness": 0, "Total Correct": 4, "Total Steps": 7 })).toEqual({ correct: 4, total: 7 });
    expect(stepCounts({ accuracy: 1 })).toBeNull();
    expect(stepTrace(undefined, { reference_steps: [1, 2], model_steps: [1, null] })).toEqual({ reference: [1, 2], steps: [1, null] });
    expect(stepTrace('{"reference": [3], "steps": [4]}')).toEqual({ reference: [3], steps: [4] });
    expect(stepTrace("steps look fine", { reference: [] })).toBeNull();
    expect(targetText(["21", "twenty-one"])).toBe("21 | twenty-one");
    expect(targetText({ x: 1 })).toBeNull();
  });
});

describe("lm-eval records", () => {
  it("reads log-likelihood pairs written as text or values, continuations of both argument shapes, and file stamps", () => {
    expect(llPair(["-10.125", "False"])).toEqual({ ll: -10.125, greedy: false });
    expect(llPair([-1.5, true])).toEqual({ ll: -1.5, greedy: true });
    expect(llPair(["x", "True"])).toBeNull();
    expect(llPair(["-1", "maybe"])).toBeNull();
    expect(continuation({ gen_args_1: { arg_0: "Q", arg_1: " Lyon" } }, 1)).toBe(" Lyon");
    expect(continuation([["Q", " Paris"]], 0)).toBe(" Paris");
    expect(stampToIso("2025-08-01T10-20-30.123456")).toBe("2025-08-01T10:20:30.123456");
    expect(stampToIso("yesterday")).toBeNull();
  });
});
