import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  byHorizon,
  defaultBenchmark,
  matchesRunSearch,
  orderBenchmarks,
  pickLengths,
  rankByHorizon,
} from "../../lib/queries/leaderboard-rank";

describe("leaderboard ranking and grouping", () => {
  it("defaults to the SPEC's first benchmark present, whatever the counts or order of the others", () => {
    expect(defaultBenchmark(["dict-sum", "procedural-arith", "dict-sum"])).toBe("procedural-arith");
    expect(defaultBenchmark(["zeta", "generic", "dict-sum"])).toBe("dict-sum");
    expect(defaultBenchmark(["zeta", "alpha"])).toBe("alpha");
    expect(defaultBenchmark([])).toBeUndefined();
    expect(orderBenchmarks(["zeta", "generic", "alpha", "procedural-arith", "dict-sum"])).toEqual([
      "procedural-arith",
      "dict-sum",
      "generic",
      "alpha",
      "zeta",
    ]);
    // The default depends on which benchmarks exist, never on how many runs or in what order;
    // once a SPEC benchmark exists, importing runs of other benchmarks cannot change it.
    const spec = fc.constantFrom("procedural-arith", "dict-sum", "generic");
    const other = fc.constantFrom("a", "b", "self-made", "zz");
    fc.assert(
      fc.property(fc.array(fc.oneof(spec, other), { minLength: 1 }), fc.array(other), (xs, added) => {
        expect(defaultBenchmark([...xs].reverse().concat(xs))).toBe(defaultBenchmark(xs));
        if (xs.some((x) => ["procedural-arith", "dict-sum", "generic"].includes(x)))
          expect(defaultBenchmark([...added, ...xs, ...added])).toBe(defaultBenchmark(xs));
      }),
    );
  });

  it("searches key, model and variant literally and case-insensitively, every word", () => {
    const run = { key: "alpha__lb3-r1-10__demo", model: "Alpha-7B", variant: "lookback-3" };
    expect(matchesRunSearch(undefined, run)).toBe(true);
    expect(matchesRunSearch("ALPHA", run)).toBe(true);
    expect(matchesRunSearch("alpha lookback", run)).toBe(true);
    expect(matchesRunSearch("alpha beta", run)).toBe(false);
    expect(matchesRunSearch("__demo", run)).toBe(true);
    // No wildcards: % and _ are characters like any other.
    expect(matchesRunSearch("a%a", run)).toBe(false);
    expect(matchesRunSearch("lookback_3", run)).toBe(false);
  });

  it("ranks within a benchmark only", () => {
    const ranks = rankByHorizon([
      { id: 1, key: "a", benchmark: "procedural-arith", h50: 30, h50Lo: 25, h50Hi: 35 },
      { id: 2, key: "b", benchmark: "procedural-arith", h50: 28, h50Lo: 20, h50Hi: 31 },
      { id: 3, key: "c", benchmark: "procedural-arith", h50: 10, h50Lo: 8, h50Hi: 12 },
      { id: 4, key: "d", benchmark: "dict-sum", h50: 90, h50Lo: 80, h50Hi: 99 },
    ]);
    expect([...ranks]).toEqual([
      [1, "leader"],
      [2, "tied"],
    ]);
  });

  it("leads with the run the H₀.₅ sort puts first: equal horizons by their CI's lower bound, then by key", () => {
    // two censored "≥ 95" runs: the one whose interval is [95, 95] leads the one at [55, 95], whatever their keys
    const sure = { id: 1, key: "z-gamma", benchmark: "procedural-arith", h50: 95, h50Lo: 95, h50Hi: 95 };
    const unsure = { id: 2, key: "a-epsilon", benchmark: "procedural-arith", h50: 95, h50Lo: 55, h50Hi: 95 };
    for (const runs of [
      [sure, unsure],
      [unsure, sure],
    ])
      expect(rankByHorizon(runs).get(1)).toBe("leader");
    expect([unsure, sure].sort(byHorizon).map((r) => r.id)).toEqual([1, 2]);
    const run = fc.record({
      key: fc.constantFrom("a", "b", "c", "d"),
      h50: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
      lo: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(run, { minLength: 2, maxLength: 8 }), (xs) => {
        const runs = xs.map((x, i) => ({
          id: i,
          key: x.key,
          benchmark: "b",
          h50: x.h50,
          h50Lo: x.h50 === null || x.lo === null ? null : Math.min(x.lo, x.h50),
          h50Hi: x.h50,
        }));
        const ranked = rankByHorizon(runs);
        const first = [...runs].sort(byHorizon)[0];
        if (first.h50 !== null && runs.filter((r) => r.h50 !== null).length > 1) {
          // the leader is the first in the order, up to runs the order cannot tell apart
          const leader = runs.find((r) => ranked.get(r.id) === "leader")!;
          expect(byHorizon(leader, first)).toBe(0);
        }
      }),
    );
  });

  it("picks the same default lengths whatever the order runs come in", () => {
    const lengths = [5, 15, 25, 35, 55, 75, 95, 5, 15, 25, 35, 55, 75, 95, 5, 25];
    expect(pickLengths(lengths)).toEqual([5, 35, 95]);
    fc.assert(
      fc.property(fc.shuffledSubarray(lengths, { minLength: lengths.length }), (xs) => {
        expect(pickLengths(xs)).toEqual([5, 35, 95]);
      }),
    );
  });
});
