import { describe, expect, it } from "vitest";
import { lastNumber, parseAnswers, parseClaims } from "../../lib/analysis/arith-parse";
import { turnAnswer } from "../../lib/analysis/dictsum-parse";
import { match, parsePlainDecimal, toleranceFromConfig } from "../../lib/analysis/numbers";

describe("arith claims", () => {
  it("takes the last number of a line-leading label, never digits of S-names", () => {
    const claims = parseClaims("S7 = S5 * S3 = 2.5 * 4 = 10\n  Step 12: S9 - S4 gives 3 - 5 = -2\nso S8 = 4\nS9 = S2 + S3");
    expect(claims.map((c) => [c.step, c.value])).toEqual([
      [7, 10],
      [12, -2],
      [9, null],
    ]);
  });
  it("reads signs: subtraction is not a sign, (-3) and = -3 are negative, exponents parse", () => {
    expect(lastNumber(" 5 - 3")).toBe(3);
    expect(lastNumber(" 5-3")).toBe(3);
    expect(lastNumber(" S4-3")).toBe(3);
    expect(lastNumber(" (-79.9) - (-60.7) = -19.216")).toBe(-19.216);
    expect(lastNumber(" 2 × (−3.5)")).toBe(-3.5);
    expect(lastNumber(" 1.5e+21")).toBe(1.5e21);
    expect(lastNumber(" S3")).toBeNull();
  });
  it("gives each claim the span of its line", () => {
    const text = "intro\nS1 = 3\r\nS2 = 4";
    const [a, b] = parseClaims(text);
    expect(text.slice(...a.span)).toBe("S1 = 3");
    expect(text.slice(...b.span)).toBe("S2 = 4");
  });
});

describe("arith answers", () => {
  it("finds tags, boxed (nested braces) and Final answer lines in text order", () => {
    const text = "Final answer: 3\n\\boxed{\\frac{1}{2}}\nx <answer> -151.837 </answer>\n**FINAL ANSWER:** 7.5.";
    const a = parseAnswers(text);
    expect(a.map((x) => [x.kind, x.text, x.value])).toEqual([
      ["final-answer", "3", 3],
      ["boxed", "\\frac{1}{2}", null],
      ["answer-tag", "-151.837", -151.837],
      ["final-answer", "7.5", 7.5],
    ]);
    expect(text.slice(...a[2].span)).toBe("<answer> -151.837 </answer>");
  });
  it("counts `Final answer: <answer>5</answer>` once, as the inner tag", () => {
    expect(parseAnswers("Final answer: <answer>5</answer>").map((x) => x.kind)).toEqual(["answer-tag"]);
  });
  it("accepts plain decimals only", () => {
    expect(["12", "-0.5", ".5", "+3.", "1e3", "1/2", "ten", "1,000", ""].map(parsePlainDecimal)).toEqual([
      12,
      -0.5,
      0.5,
      3,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe("dict-sum turn text", () => {
  it("ignores answers inside thinking and takes the first tag after it", () => {
    expect(turnAnswer("<think>Maybe <answer>67</answer>? No: 57.</think><answer>57</answer><answer>9</answer>").text).toBe("57");
    expect(turnAnswer("draft</think>\n<answer>4</answer>").text).toBe("4"); // opening tag dropped by the server
    expect(turnAnswer("<think>cut off <answer>3</answer>").text).toBeNull();
    expect(turnAnswer("I am not sure.").text).toBeNull();
    const t = "x <answer> 12 </answer>";
    expect(t.slice(...turnAnswer(t).span!)).toBe("<answer> 12 </answer>");
  });
});

describe("tolerance", () => {
  it("uses v as the reference side and accepts both config shapes", () => {
    expect(match(100.009, 100)).toBe(true); // 0.0001·100 = 0.01
    expect(match(0.0006, 0)).toBe(false);
    expect(toleranceFromConfig({ tolerance: { abs: 0.1 } })).toEqual({ abs: 0.1, rel: 0.0001 });
    expect(toleranceFromConfig({ tolerance: { tol_abs: 0, tol_rel: 0.01 } })).toEqual({ abs: 0, rel: 0.01 });
    expect(() => toleranceFromConfig({ tolerance: 3 })).toThrow();
  });
});

describe("untrusted output stays linear", () => {
  it("handles megabytes of adversarial text quickly", () => {
    const big = [
      "<answer>".repeat(300_000),
      "\\boxed{".repeat(200_000),
      "S1 = " + "1 ".repeat(500_000),
      "Final answer:" + " ".repeat(1_000_000) + "x",
      ("S3 = S2 - " + "-".repeat(1000) + "\n").repeat(1000),
      "<think>" + "<answer>1</answer>".repeat(100_000),
    ];
    const t = Date.now();
    for (const text of big) {
      parseClaims(text);
      parseAnswers(text);
      turnAnswer(text);
    }
    expect(Date.now() - t).toBeLessThan(5000);
  });
});
