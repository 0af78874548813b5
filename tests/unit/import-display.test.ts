// The display rules issue 16 asks of imported runs: lengths in the benchmark's unit (METR:
// minutes), pass@k only over items that have k generations and saying how many.
import { describe, expect, it } from "vitest";
import { commonLengthUnit, fmtLength, lengthAxisLabel, lengthUnitOf } from "../../lib/analysis/length-unit";
import { headlinePassAtK } from "../../lib/analysis/pass-at-k";
import { fmtLengthCI, fmtLengthFit } from "../../components/ui/format";

describe("length units", () => {
  it("8. METR runs (source.format metr-runs) are in minutes: 'L80 0.79 min', never '< 1 step'", () => {
    const unit = lengthUnitOf({ format: "metr-runs", paper: "arXiv:2503.14499" });
    expect(unit).toBe("minutes");
    expect(lengthUnitOf({ format: "inspect-eval" })).toBe("steps");
    expect(lengthUnitOf(null)).toBe("steps");
    expect(fmtLengthFit(0.79, 480, unit).text).toBe("0.79 min");
    expect(fmtLengthFit(54.23, 480, unit).text).toBe("54.2 min");
    expect(fmtLengthFit(900, 480, unit)).toEqual({ text: "> 480 min (extrapolated)", extrapolated: true });
    expect(fmtLengthFit(0.79, 480).text).toBe("< 1 step"); // a step count below 1 stays a bound
    expect(fmtLengthCI(0.41, 1.7, 480, unit)).toBe("[0.41, 1.7] min");
    // a bound below one step is a bound, as the point estimate is, not "0" or "0.4" steps
    expect(fmtLengthCI(0.0056, 21.5196, 95)).toBe("[< 1, 21.5]");
    expect(fmtLengthCI(0, 2.8594, 95, "steps")).toBe("[< 1, 2.9]");
    expect(fmtLengthCI(0.4, 40, 35)).toBe("[< 1, > 35]");
    expect(lengthAxisLabel(unit, true)).toBe("Human time (minutes, log scale)");
    expect(lengthAxisLabel(commonLengthUnit(["steps", "minutes"]))).toBe("Length (steps or minutes)");
    expect(fmtLength(1, "steps")).toBe("1 step");
    expect(fmtLength(8, "minutes")).toBe("8 min");
  });
});

describe("pass@k headline", () => {
  it("8. shows the largest k every repeated item reaches, with its item count; never a k resting on one item", () => {
    // 40 tasks with 8 runs each, one task with 65 runs (a METR-like spread)
    const rows = [
      { k: 1, pass_at_k: 0.36, pass_hat_k: 0.36, items: 41 },
      ...[2, 3, 4, 5, 6, 7, 8].map((k) => ({ k, pass_at_k: 0.5, pass_hat_k: 0.1, items: 41 })),
      ...Array.from({ length: 57 }, (_, i) => ({ k: 9 + i, pass_at_k: 0, pass_hat_k: 0, items: 1 })),
    ];
    expect(headlinePassAtK(rows)).toMatchObject({ k: 8, items: 41 });
    // uneven repeats: the largest k that all ten repeated items reach
    const uneven = [
      { k: 2, pass_at_k: 0.5, pass_hat_k: 0.2, items: 10 },
      { k: 3, pass_at_k: 0.6, pass_hat_k: 0.1, items: 6 },
      { k: 4, pass_at_k: 0.7, pass_hat_k: 0.1, items: 2 },
    ];
    expect(headlinePassAtK(uneven)).toMatchObject({ k: 2, items: 10 });
    // rows stored before the count was kept are not shown at all
    expect(headlinePassAtK([{ k: 2, pass_at_k: 0.5, pass_hat_k: 0.2 }])).toBeNull();
    expect(headlinePassAtK(null)).toBeNull();
  });
});
