import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { STEP_STATUSES, type StepStatus } from "../../lib/analysis/types";
import { decodeStepTrace, encodeStepTrace } from "../../lib/store/step-trace";

// The step trace record (lib/store/step-trace.ts) must give back exactly what the StepResult
// rows held (values as text), and the writer (values as analysed) and migration 0009 (values
// as the rows' text) must write the same bytes for the same steps.
const value = fc.oneof(
  fc.double({ noNaN: false }),
  fc.integer({ min: -1e6, max: 1e6 }),
  fc.double({ min: -1e4, max: 1e4, noNaN: true }).map((x) => Math.round(x * 1e6) / 1e6),
  fc.string(),
  fc.constantFrom("007", "1.50", "", " 1", "-0", "1e3", "Infinity", "0x10"),
);
const step = fc.record({
  status: fc.constantFrom(...STEP_STATUSES),
  expected: value,
  claimed: fc.option(value),
  recomputed: fc.option(value),
  span: fc.option(
    fc.tuple(fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 0, max: 5000 })).map(([s, n]) => [s, s + n] as [number, number]),
  ),
});
const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

describe("step trace record", () => {
  it("decodes to the steps' values as text, spans and statuses, numbered from 1", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
        const decoded = decodeStepTrace(encodeStepTrace(steps));
        expect(decoded).toEqual(
          steps.map((s, i) => ({
            step: i + 1,
            status: s.status,
            expected: String(s.expected),
            claimed: text(s.claimed),
            recomputed: text(s.recomputed),
            span: s.span,
          })),
        );
      }),
      { numRuns: 300 },
    );
  });

  it("is the same bytes from analysed values and from their text (writer and migration agree)", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        const asText = steps.map((s) => ({ ...s, expected: String(s.expected), claimed: text(s.claimed), recomputed: text(s.recomputed) }));
        expect(Buffer.compare(encodeStepTrace(steps)!, encodeStepTrace(asText)!)).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it("is null for no steps, and a damaged record is an error, not wrong steps", () => {
    expect(encodeStepTrace([])).toBeNull();
    expect(decodeStepTrace(null)).toEqual([]);
    expect(() => decodeStepTrace(Buffer.from("not a record"))).toThrow();
    const steps = [{ status: "slip" as StepStatus, expected: 1, claimed: 2, recomputed: null, span: null }];
    const record = encodeStepTrace(steps)!;
    expect(() => decodeStepTrace(record.subarray(0, record.length - 2))).toThrow();
  });

  it("keeps a 50-step arithmetic trace small", () => {
    let end = 0;
    const steps = Array.from({ length: 50 }, (_, i) => {
      const v = Math.round(Math.sin(i + 1) * 1e9) / 1e6;
      const start = end + 4;
      end = start + 24;
      return { status: "correct" as StepStatus, expected: v, claimed: v, recomputed: v, span: [start, end] as [number, number] };
    });
    // the same steps took about 50 × 85 bytes as StepResult rows and their key
    expect(encodeStepTrace(steps)!.length).toBeLessThan(1200);
  });
});
