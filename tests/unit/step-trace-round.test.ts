import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyFormula, firstFormula, roundTo, WINDOW } from "../../lib/store/step-trace-derive";

// roundTo decides which claimed values a step trace stores as "the expected value, rounded to d
// decimals" and gives them back when the trace is read: it must be toFixed's rounding exactly,
// its shortcut included (halves, negatives, -0, huge and tiny values, every d).
const reference = (v: number, d: number) => Number(v.toFixed(d));

describe("roundTo", () => {
  it("rounds as Number(v.toFixed(d)) does, whatever the double", () => {
    const decimals = fc.integer({ min: 0, max: 20 });
    const doubles = fc.oneof(
      fc.double({ noNaN: true }),
      fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      // values printed with a few decimals, and their neighbours: where halves are
      fc.tuple(fc.integer({ min: -1e7, max: 1e7 }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: -2, max: 2 })).map(([n, k, ulps]) => {
        let v = n / 10 ** k;
        for (let i = 0; i < Math.abs(ulps); i++) v = ulps > 0 ? nextUp(v) : -nextUp(-v);
        return v;
      }),
    );
    fc.assert(
      fc.property(doubles, decimals, (v, d) => {
        expect(roundTo(v, d)).toBe(reference(v, d));
      }),
      { numRuns: 20_000 },
    );
  });

  it("rounds halves as toFixed does, away from zero on the exact value", () => {
    for (const [v, d] of [
      [2.5, 0],
      [-2.5, 0],
      [0.125, 2],
      [-0.125, 2],
      [1.005, 2],
      [8.345, 2],
      [1e-7, 3],
      [-1e-7, 3],
      [-0, 2],
    ] as const)
      expect(roundTo(v, d)).toBe(reference(v, d));
  });
});

/** The next double above v (v finite). */
function nextUp(v: number): number {
  if (v === 0) return Number.MIN_VALUE;
  const b = new Float64Array([v]);
  const u = new BigInt64Array(b.buffer);
  u[0] += v > 0 ? 1n : -1n;
  return b[0];
}

describe("firstFormula", () => {
  // the search as it was written first: every k in order, the ones whose first operand exists
  const reference = (values: number[], i: number, e: number) => {
    const kinds = 4 * WINDOW * Math.min(i, WINDOW);
    for (let k = 0; k < kinds; k++) if ((k >> 2) % WINDOW < i && applyFormula(k, values, i) === e) return k;
    return -1;
  };
  it("finds the same formula as trying every k in order", () => {
    const value = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(0.5, 1.5, 2.25, Number.NaN, 0));
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 9 }), fc.nat(), value, (values, at, other) => {
        const i = at % values.length;
        for (const e of [values[i], other, values[0] + (values[1] ?? 0), values[0] * 2])
          expect(firstFormula(values, i, e)).toBe(reference(values, i, e));
      }),
      { numRuns: 20_000 },
    );
  });
});
