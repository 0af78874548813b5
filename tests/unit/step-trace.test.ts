import { deflateRawSync } from "node:zlib";
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

// An arithmetic trace as procedural-arith makes them: each step one op over the three before
// it, the model's values rounded (or wrong, or missing) and recomputed from its own values;
// what version 2 derives instead of listing (formulas, roundings).
const apply = (op: number, a: number, b: number) => [a + b, a - b, a * b, a / b][op];
const arithTrace = fc
  .record({
    x: fc.integer({ min: -9999, max: 9999 }).map((n) => n / 1000),
    y: fc.oneof(
      fc.integer({ min: -9999, max: 9999 }).map((n) => n / 1000),
      fc.constant(-0),
    ),
    ops: fc.array(
      fc.record({
        op: fc.integer({ min: 0, max: 3 }),
        a: fc.nat(),
        b: fc.nat(),
        decimals: fc.integer({ min: 0, max: 7 }),
        model: fc.constantFrom("right", "right", "right", "slip", "own", "missing", "silent"),
        gap: fc.integer({ min: 0, max: 3 }),
      }),
      { maxLength: 60 },
    ),
  })
  .map(({ x, y, ops }) => {
    const expected = [x, y];
    const own = [x, y];
    const steps: TestStep[] = [
      { status: "correct", expected: x, claimed: x, recomputed: null, span: [0, 9] },
      { status: "correct", expected: y, claimed: y, recomputed: null, span: null },
    ];
    let end = 9;
    for (const o of ops) {
      const i = expected.length;
      const a = i - 1 - (o.a % Math.min(3, i));
      const b = i - 1 - (o.b % Math.min(3, i));
      const e = apply(o.op, expected[a], expected[b]);
      const r = apply(o.op, own[a], own[b]);
      const round = (v: number) => (Number.isFinite(v) ? Number(v.toFixed(o.decimals)) : v);
      const claimed = { right: round(e), slip: round(e) + 1, own: round(r), missing: null, silent: null }[o.model];
      expected.push(e);
      own.push(claimed ?? e);
      const span: [number, number] | null = o.model === "missing" ? null : [end + o.gap, end + o.gap + 20];
      if (span) end = span[1];
      const status: StepStatus = { right: "correct", slip: "slip", own: "propagated", missing: "missing", silent: "slip" }[
        o.model
      ] as StepStatus;
      steps.push({ status, expected: e, claimed, recomputed: Number.isFinite(r) ? r : null, span });
    }
    return steps;
  });
interface TestStep {
  status: StepStatus;
  expected: number | string;
  claimed: number | string | null;
  recomputed: number | string | null;
  span: [number, number] | null;
}
const asStored = (steps: readonly TestStep[]) =>
  steps.map((s, i) => ({
    step: i + 1,
    status: s.status,
    expected: String(s.expected),
    claimed: text(s.claimed),
    recomputed: text(s.recomputed),
    span: s.span,
  }));
const asText = (steps: readonly TestStep[]) =>
  steps.map((s) => ({ ...s, expected: String(s.expected), claimed: text(s.claimed), recomputed: text(s.recomputed) }));
/** A version-2 record holding this JSON (for damaged records that still inflate). */
const recordOf = (json: unknown) => deflateRawSync(JSON.stringify(json));

describe("step trace record", () => {
  it("decodes to the steps' values as text, spans and statuses, numbered from 1", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
        expect(decodeStepTrace(encodeStepTrace(steps))).toEqual(asStored(steps));
      }),
      { numRuns: 300 },
    );
  });

  it("gives back arithmetic traces exactly, derived values included", () => {
    fc.assert(
      fc.property(arithTrace, (steps) => {
        expect(decodeStepTrace(encodeStepTrace(steps))).toEqual(asStored(steps));
        expect(decodeStepTrace(encodeStepTrace(asText(steps)))).toEqual(asStored(steps));
      }),
      { numRuns: 300 },
    );
  });

  it("is the same bytes from analysed values and from their text (writer and migration agree)", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        expect(Buffer.compare(encodeStepTrace(steps)!, encodeStepTrace(asText(steps))!)).toBe(0);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(arithTrace, (steps) => {
        expect(Buffer.compare(encodeStepTrace(steps)!, encodeStepTrace(asText(steps))!)).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it("still decodes version-1 records (stores written before version 2 hold them)", () => {
    // written by the version-1 encoder (commit c26768b) for the steps below
    const v1 = Buffer.from(
      "jY9NisJAEIWvIrX10dTrn3T1ETxDzCqjIGqiJC48kufwYkNnhHHhwlp8UPDqo15LSN/30+U89ZOgTc5iQXG+KWBypOn/eKhrGEhlKbmh5RDA6JJGs2KqPhh9hkLokgpkHo/3USDSfVJDXa666ogarWC4nU4Q1fx2+3ystnK9jfPuZ7uIltCCrz+sdjNkyGbYH4bDfJeXYbf27NBGgooXQq4oIKL/i9VOVKRl67pf",
      "base64",
    );
    const steps: TestStep[] = [
      { status: "correct", expected: 5.849, claimed: 5.849, recomputed: null, span: [41, 51] },
      { status: "correct", expected: 9.269, claimed: "9.269", recomputed: null, span: [52, 62] },
      { status: "correct", expected: 15.118000000000002, claimed: 15.118, recomputed: 15.118000000000002, span: [63, 100] },
      { status: "slip", expected: 0.6131101997618733, claimed: 0.71311, recomputed: 0.6131101997618733, span: [101, 140] },
      { status: "propagated", expected: 14.504889800238127, claimed: 14.40489, recomputed: 14.404888, span: [141, 183] },
      { status: "missing", expected: -0, claimed: null, recomputed: 7, span: null },
      { status: "slip", expected: "1.50", claimed: "007", recomputed: "Infinity", span: [190, 190] },
      { status: "correct", expected: "tokyo", claimed: "tokyo", recomputed: null, span: [200, 205] },
      { status: "slip", expected: "", claimed: 'é "quoted"', recomputed: 1e21, span: null },
    ];
    expect(decodeStepTrace(v1)).toEqual(asStored(steps));
    expect(decodeStepTrace(v1)[8].recomputed).toBe("1e+21");
    // the same steps as version 2: the same text back
    expect(decodeStepTrace(encodeStepTrace(steps))).toEqual(decodeStepTrace(v1));
  });

  it("is null for no steps, and a damaged record is an error, not wrong steps", () => {
    expect(encodeStepTrace([])).toBeNull();
    expect(decodeStepTrace(null)).toEqual([]);
    expect(() => decodeStepTrace(Buffer.from("not a record"))).toThrow();
    const steps = [{ status: "slip" as StepStatus, expected: 1, claimed: 2, recomputed: null, span: null }];
    const record = encodeStepTrace(steps)!;
    expect(() => decodeStepTrace(record.subarray(0, record.length - 2))).toThrow();
  });

  it("rejects damaged version-2 records", () => {
    // step 2's expected value is formula "A": step 1's plus step 1's
    const good = [2, "cc", ".A", "..", "==", [1], [], [], [null, null]];
    expect(decodeStepTrace(recordOf(good)).map((s) => s.expected)).toEqual(["1", "2"]);
    const damage = (column: number, value: unknown) => good.map((c, i) => (i === column ? value : c));
    const damaged: unknown[][] = [
      good.slice(0, 5), // columns missing
      damage(0, 3), // unknown version
      damage(1, "cx"), // unknown status
      damage(2, "."), // unequal columns
      damage(2, "AA"), // a formula at step 1
      damage(2, ".P"), // an operand before step 1
      damage(5, ["x"]), // a formula over text
      damage(3, ".?"), // unknown recomputed letter
      [2, "cc", "..", ".f", "==", [1, 2], [], [], [null, null]], // a formula's value without a formula
      damage(4, "=?"), // unknown claimed letter
      damage(4, "=~"), // the recomputed value of a step without one
      damage(4, "=A"), // the recomputed value rounded, without one
      damage(2, ".."), // too few values listed
      damage(5, [1, 2]), // too many
      damage(5, [[1]]), // a listed value that is none
      [2, "cc", ".A", "..", "=!", [1], [], [null], [null, null]], // a listed value that is null
      damage(5, "1"), // values not a list
      damage(8, [null]), // spans of one step
      damage(8, [null, 1]), // a span cut short
      damage(8, { 0: null }), // spans not a list
    ];
    for (const d of damaged) expect(() => decodeStepTrace(recordOf(d)), JSON.stringify(d)).toThrow();
    const record = encodeStepTrace([{ status: "correct" as StepStatus, expected: 1, claimed: 1, recomputed: null, span: [0, 4] }])!;
    expect(() => decodeStepTrace(record.subarray(0, record.length - 1))).toThrow();
    // a record inflating past the limit (64 MB) is refused, not inflated
    expect(() => decodeStepTrace(deflateRawSync(Buffer.alloc(65 << 20, 32)))).toThrow();
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

  it("derives a procedural trace's full-precision values instead of listing them", () => {
    // one op over the three steps before, the model rounding to 5 decimals and computing
    // from its own values: what made version 1 records ~800 bytes at 50 steps
    const [expected, own] = [
      [5.849, 9.269],
      [5.849, 9.269],
    ];
    const steps: TestStep[] = expected.map((v) => ({ status: "correct", expected: v, claimed: v, recomputed: null, span: null }));
    for (let i = 2; i < 50; i++) {
      const [op, a, b] = [i % 4, i - 1, i - 2 - (i % 2)];
      const e = apply(op, expected[a], expected[b]);
      const r = apply(op, own[a], own[b]);
      const claimed = Number(r.toFixed(5));
      expected.push(e);
      own.push(claimed);
      steps.push({ status: "correct", expected: e, claimed, recomputed: r, span: [i * 40, i * 40 + 36] });
    }
    expect(decodeStepTrace(encodeStepTrace(steps))).toEqual(asStored(steps));
    expect(encodeStepTrace(steps)!.length).toBeLessThan(200); // version 1 listed all 150 values
  });
});
