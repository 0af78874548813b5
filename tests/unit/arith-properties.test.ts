import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyseItem } from "../../lib/analysis/analyse";
import { applyOp, referenceTrace, type ArithProcedure, type ArithStep } from "../../lib/analysis/arith";
import type { NativeItem, RunHeader } from "../../lib/analysis/types";

const header = (lookback: number): RunHeader => ({
  key: "p",
  model: { name: "M" },
  benchmark: "procedural-arith",
  variant: { name: "v", lookback },
  config: {},
  source: null,
  created_at: null,
});

// A procedure whose reference stays finite and moderate (so every value prints as a plain decimal).
const procedureArb = fc
  .record({
    lookback: fc.integer({ min: 1, max: 7 }),
    L: fc.integer({ min: 3, max: 40 }),
    x: fc.integer({ min: 100, max: 10000 }),
    y: fc.integer({ min: 100, max: 10000 }),
  })
  .chain(({ lookback, L, x, y }) =>
    fc
      .array(
        fc.record({ op: fc.constantFrom("+", "-", "*", "/"), da: fc.integer({ min: 1, max: 7 }), db: fc.integer({ min: 1, max: 7 }) }),
        { minLength: L - 2, maxLength: L - 2 },
      )
      .map((raw) => {
        const steps: ArithStep[] = raw.map((r, k) => {
          const j = k + 3;
          const lb = Math.min(lookback, j - 1);
          return { op: r.op as ArithStep["op"], a: j - 1 - ((r.da - 1) % lb), b: j - 1 - ((r.db - 1) % lb) };
        });
        return { lookback, proc: { x: x / 100, y: y / 100, steps } as ArithProcedure };
      }),
  );

const moderate = (vals: number[]) => vals.every((v) => Number.isFinite(v) && Math.abs(v) < 1e9 && (v === 0 || Math.abs(v) > 1e-6));

function item(proc: ArithProcedure, values: number[], answer: number): NativeItem {
  const lines = values.map((v, i) => (i % 3 === 2 ? `Step ${i + 1}: ${v}` : `S${i + 1} = ${v}`));
  return {
    id: "i",
    length: values.length,
    epoch: 0,
    input: { x: proc.x, y: proc.y, steps: proc.steps },
    output: `${lines.join("\n")}\n<answer>${answer.toFixed(3)}</answer>`,
  };
}

/** Steps that read S_j, directly or through other steps. */
function dependents(proc: ArithProcedure, j: number, L: number): Set<number> {
  const dep = new Set([j]);
  for (let k = Math.max(3, j + 1); k <= L; k++) {
    const s = proc.steps[k - 3];
    if (dep.has(s.a) || dep.has(s.b)) dep.add(k);
  }
  dep.delete(j);
  return dep;
}

describe("procedural-arith properties", () => {
  it("a trace written from the reference (4 decimals) is always a clean, exact-step execution", () => {
    fc.assert(
      fc.property(procedureArb, ({ lookback, proc }) => {
        const { trace } = referenceTrace(proc);
        fc.pre(trace !== null && moderate(trace));
        const written = trace!.map((v) => Number(v.toFixed(4)));
        const a = analyseItem(header(lookback), item(proc, written, trace![trace!.length - 1]));
        expect(a.steps.every((s) => s.status === "correct")).toBe(true);
        expect([a.clean, a.exactStep, a.firstDivergence, a.modes]).toEqual([true, true, null, []]);
      }),
      { numRuns: 300, seed: 1 },
    );
  });

  it("one slip at step j: first divergence j, a slip there, dependent steps propagated, nothing else wrong", () => {
    fc.assert(
      fc.property(procedureArb, fc.nat(), ({ lookback, proc }, pick) => {
        const { trace } = referenceTrace(proc);
        fc.pre(trace !== null && moderate(trace));
        const L = trace!.length;
        const j = 1 + (pick % L);
        // The model gets S_j wrong, then carries its own values forward consistently.
        const own = trace!.slice(0, j - 1);
        own.push(trace![j - 1] * 1.5 + 7);
        for (let k = j + 1; k <= L; k++) {
          const s = proc.steps[k - 3];
          own.push(k < 3 ? trace![k - 1] : applyOp(s.op, own[s.a - 1], own[s.b - 1]));
        }
        fc.pre(moderate(own));
        const a = analyseItem(header(lookback), item(proc, own, own[L - 1]));
        expect(a.firstDivergence).toBe(j);
        expect(a.steps[j - 1].status).toBe("slip");
        const dep = dependents(proc, j, L);
        for (let k = j + 1; k <= L; k++) {
          const st = a.steps[k - 1].status;
          const differs = Math.abs(own[k - 1] - trace![k - 1]) > Math.max(0.0005, 0.0001 * Math.abs(trace![k - 1]));
          if (!dep.has(k)) expect(st, `step ${k}`).toBe("correct");
          else expect(st, `step ${k}`).toBe(differs ? "propagated" : "correct");
        }
        expect(a.modes).toContain("slip");
        expect(a.steps.filter((s) => s.status === "slip").length).toBe(1);
      }),
      { numRuns: 300, seed: 2 },
    );
  });
});
