import { describe, expect, it } from "vitest";
import { arithAnswerCorrect, distinctNumbers } from "../../lib/analysis/arith-align";
import { DEFAULT_TOLERANCE } from "../../lib/analysis/numbers";

// SPEC §2.1: the answer is S_L rounded half away from zero to 3 decimals.
describe("arith grading (the paper's rule)", () => {
  it("accepts the rounded value and rejects the unrounded one when they differ", () => {
    expect(arithAnswerCorrect(-8.58, -8.580492, DEFAULT_TOLERANCE)).toBe(true);
    expect(arithAnswerCorrect(-8.581, -8.580492, DEFAULT_TOLERANCE)).toBe(false);
    // 0.0625 rounds half away from zero to 0.063
    expect(arithAnswerCorrect(0.063, 0.0625, DEFAULT_TOLERANCE)).toBe(true);
    expect(arithAnswerCorrect(0.062, 0.0625, DEFAULT_TOLERANCE)).toBe(false);
    expect(arithAnswerCorrect(-0.063, -0.0625, DEFAULT_TOLERANCE)).toBe(true);
  });
  it("an unrounded S_L that is not within tolerance of its rounding is wrong", () => {
    // 12.3456 is 0.0004 from its rounding 12.346: inside the tolerance; 2.4996 is 0.0006 from
    // 2.499 (the rounding of 2.4994) although only 0.0002 from the unrounded value
    expect(arithAnswerCorrect(12.3456, 12.3456, DEFAULT_TOLERANCE)).toBe(true);
    expect(arithAnswerCorrect(2.4996, 2.4994, DEFAULT_TOLERANCE)).toBe(false);
  });
  it("no value is never correct", () => {
    expect(arithAnswerCorrect(null, 1, DEFAULT_TOLERANCE)).toBe(false);
  });
  it("counts tolerance-distinct numeric answers", () => {
    expect(distinctNumbers([{ value: 1 }, { value: 1.0001 }, { value: null }], DEFAULT_TOLERANCE)).toBe(1);
    expect(distinctNumbers([{ value: 1 }, { value: 2 }], DEFAULT_TOLERANCE)).toBe(2);
  });
});
