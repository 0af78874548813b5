import { describe, expect, it } from "vitest";
import { recoveredAfter } from "../../components/generation/generation-summary";

describe("recovered generations", () => {
  const base = { firstDivergence: 2, divergenceKind: "slip", firstCorrect: true, lastCorrect: true };
  it("flags a right final answer after a divergence, naming the step and its kind", () => {
    expect(recoveredAfter(base)).toBe("The final answer is right: recovered after a slip at step 2.");
    expect(recoveredAfter({ ...base, divergenceKind: "missing", firstDivergence: 7 })).toBe(
      "The final answer is right: recovered after leaving step 7 unstated.",
    );
    expect(recoveredAfter({ ...base, firstCorrect: false })).toMatch(
      /^The last answer is right \(the first was not\): recovered after a slip at step 2/,
    );
  });
  it("does not flag a clean trace or a wrong final answer", () => {
    expect(recoveredAfter({ ...base, firstDivergence: null })).toBeNull();
    expect(recoveredAfter({ ...base, lastCorrect: false, firstCorrect: false })).toBeNull();
  });
});
