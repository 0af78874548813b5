import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyseItem, statusLetters } from "../../lib/analysis/analyse";
import type { RunHeader } from "../../lib/analysis/types";
import { arithReference, drawArithInput } from "../../lib/generate/arith";
import { createRng } from "../../lib/generate/rng";
import { derivedStepTrace, storedSteps, storesStepTrace } from "../../lib/store/derived-trace";
import { decodeItemContent, encodeItemContent } from "../../lib/store/item-content";
import { decodeStepTrace, encodeStepTrace } from "../../lib/store/step-trace";

// A procedural-arith load stores no step trace (lib/store/step-trace.ts): the trace diff
// recomputes it from the stored item and output. What it shows must be exactly what the stored
// record would have shown — for any output text, any look-back and tolerance.

const header = (lookback: number, tolerance: unknown): RunHeader => ({
  key: "k",
  model: { name: "m" },
  benchmark: "procedural-arith",
  variant: { name: `lb${lookback}`, lookback },
  config: tolerance === undefined ? {} : { tolerance },
  source: null,
  created_at: null,
});

// Output lines as models write them: right values, roundings, slips, repeats, steps out of
// range, other labels, garbage and answers.
const line = (reference: number[]) =>
  fc.oneof(
    fc
      .record({
        j: fc.integer({ min: -1, max: reference.length + 2 }),
        how: fc.constantFrom("exact", "round", "slip", "text", "neg"),
        d: fc.integer({ min: 0, max: 6 }),
        label: fc.constantFrom("S", "Step ", "s"),
      })
      .map(({ j, how, d, label }) => {
        const v = reference[Math.min(Math.max(j, 1), reference.length) - 1];
        const shown =
          how === "exact"
            ? String(v)
            : how === "round"
              ? v.toFixed(d)
              : how === "slip"
                ? String(v + 1)
                : how === "neg"
                  ? String(-v)
                  : "seven";
        return `${label}${j} = S${Math.max(j - 1, 1)} + S${Math.max(j - 2, 1)} = ${shown}`;
      }),
    fc.string({ maxLength: 30 }),
    fc.integer({ min: 0, max: 4 }).map((d) => `<answer>${reference[reference.length - 1].toFixed(d)}</answer>`),
  );

const generation = fc
  .record({
    seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    length: fc.integer({ min: 3, max: 40 }),
    lookback: fc.integer({ min: 2, max: 7 }),
  })
  .chain(({ seed, length, lookback }) => {
    const input = drawArithInput(createRng(seed), length, { lookback, inputRange: [1, 10], ops: "mixed", decimals: 1 });
    return fc.record({
      input: fc.constant(input),
      lookback: fc.constant(lookback),
      tolerance: fc.constantFrom(undefined, { abs: 0.01 }, { rel: 1e-3 }, { abs: 0 }),
      output: fc.array(line(arithReference(input)), { maxLength: 60 }).map((ls) => ls.join("\n")),
    });
  });

describe("a procedural-arith step trace recomputed from the store", () => {
  it("is not stored for procedural-arith, and is for the benchmarks whose steps can come from elsewhere", () => {
    expect(storesStepTrace("procedural-arith")).toBe(false);
    for (const b of ["dict-sum", "generic"]) expect(storesStepTrace(b)).toBe(true);
  });

  it("equals the record the load would have stored, for any output", () => {
    fc.assert(
      fc.property(generation, ({ input, lookback, tolerance, output }) => {
        const h = header(lookback, tolerance);
        const item = { id: "i", length: input.steps.length + 2, epoch: 1, input: input as unknown as Record<string, unknown>, output };
        const a = analyseItem(h, item);
        // the item's input as the store gives it back (its content record), the run as its columns hold it
        const stored = decodeItemContent(encodeItemContent(JSON.stringify(item.input), null).body).input;
        const got = derivedStepTrace(
          { benchmark: h.benchmark, variantJson: JSON.stringify(h.variant), config: JSON.stringify(h.config) },
          { id: item.id, length: a.length, epoch: 1, input: stored },
          output,
          statusLetters(a),
        );
        expect(got).toEqual(decodeStepTrace(encodeStepTrace(a.steps)));
        expect(storedSteps(a.steps)).toEqual(got);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses, rather than show other steps, when the stored statuses disagree", () => {
    const input = drawArithInput(createRng(7), 8, { lookback: 3, inputRange: [1, 10], ops: "mixed", decimals: 1 });
    const h = header(3, undefined);
    const output = arithReference(input)
      .map((v, i) => `S${i + 1} = ${v}`)
      .join("\n");
    const a = analyseItem(h, { id: "i", length: 8, epoch: 1, input: input as unknown as Record<string, unknown>, output });
    const run = { benchmark: h.benchmark, variantJson: JSON.stringify(h.variant), config: "{}" };
    const item = { id: "i", length: 8, epoch: 1, input: input as unknown as Record<string, unknown> };
    expect(derivedStepTrace(run, item, output, statusLetters(a))).toHaveLength(8);
    expect(() => derivedStepTrace(run, item, output, "x".repeat(8))).toThrow(/other steps than the load recorded/);
    expect(() => derivedStepTrace(run, { ...item, input: { x: 1 } }, output, statusLetters(a))).toThrow(/no longer analyses/);
  });
});
