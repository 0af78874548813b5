import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SummaryColumns } from "../../lib/analysis/summary-columns";
import type { GenerationSummary } from "../../lib/analysis/types";
import { stepCounts } from "../../lib/store/aggregates";

const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });

/** A summary with only its statuses and item set. */
const base = (statuses: string, itemKey: string): GenerationSummary => ({
  itemKey,
  epoch: 0,
  length: statuses.length,
  firstCorrect: true,
  lastCorrect: true,
  firstDivergence: null,
  statuses,
  modes: 0,
  cluster: null,
  selfConditioning: null,
  clean: true,
  exactStep: true,
  promptTokens: null,
  completionTokens: null,
  latencyMs: null,
  costUsd: null,
});

const summary: fc.Arbitrary<GenerationSummary> = fc
  .record({
    itemKey: fc.constantFrom("a", "b", "c", "item-4", ""),
    epoch: fc.integer({ min: 0, max: 5 }),
    length: fc.integer({ min: 0, max: 120 }),
    firstCorrect: fc.boolean(),
    lastCorrect: fc.boolean(),
    firstDivergence: nullable(fc.integer({ min: 1, max: 120 })),
    statuses: fc.stringMatching(/^[cspm]{0,40}$/),
    modes: fc.integer({ min: 0, max: (1 << 8) - 1 }),
    cluster: nullable(fc.constantFrom("v1", "v2", "")),
    selfConditioning: nullable(
      fc.record({ inducedErrorRate: fc.double({ min: 0, max: 1, noNaN: true }), targetTurn: fc.integer({ min: 1, max: 9 }) }),
    ),
    clean: fc.boolean(),
    exactStep: fc.boolean(),
    promptTokens: nullable(fc.integer({ min: 0, max: 1e6 })),
    completionTokens: nullable(fc.integer({ min: 0, max: 1e6 })),
    latencyMs: nullable(fc.double({ min: 0, max: 1e5, noNaN: true })),
    costUsd: nullable(fc.double({ min: 0, max: 10, noNaN: true })),
    lengthValue: fc.option(fc.double({ min: 0.1, max: 1e4, noNaN: true }), { nil: undefined }),
    weight: fc.option(fc.double({ min: 0.01, max: 1, noNaN: true }), { nil: undefined }),
  })
  .map((s) => {
    // GenerationSummary leaves lengthValue/weight out rather than undefined
    const out: GenerationSummary = { ...s };
    if (s.lengthValue === undefined) delete out.lengthValue;
    if (s.weight === undefined) delete out.weight;
    return out;
  });

describe("SummaryColumns", () => {
  it("gives back every summary pushed, across growth and optional columns", () => {
    fc.assert(
      fc.property(fc.array(summary, { maxLength: 200 }), (list) => {
        const cols = new SummaryColumns(1); // grows many times
        for (const s of list) cols.push(s);
        expect(cols.n).toBe(list.length);
        const noUsage = { promptTokens: null, completionTokens: null, latencyMs: null, costUsd: null };
        expect(Array.from({ length: cols.n }, (_, i) => cols.get(i))).toEqual(list.map((s) => ({ ...s, ...noUsage })));
        expect(cols.items).toBe(new Set(list.map((s) => s.itemKey)).size);
        // usage is kept as totals, summed in push order as the metrics summed the columns
        let [promptTokens, completionTokens, costUsd, latencySum, latencyCount] = [0, 0, 0, 0, 0];
        for (const s of list) {
          promptTokens += s.promptTokens ?? 0;
          completionTokens += s.completionTokens ?? 0;
          costUsd += s.costUsd ?? 0;
          if (s.latencyMs !== null) [latencySum, latencyCount] = [latencySum + s.latencyMs, latencyCount + 1];
        }
        const any = list.some((s) => s.promptTokens !== null || s.completionTokens !== null || s.latencyMs !== null || s.costUsd !== null);
        expect(cols.usage).toEqual({ any, promptTokens, completionTokens, costUsd, latencySum, latencyCount });
      }),
      { numRuns: 200 },
    );
  });

  it("counts locally correct steps in one pass as code() does step by step", () => {
    const reference = (cols: SummaryColumns, i: number, limit: number, perStep: Float64Array | null, offset: number) => {
      let total = 0;
      for (let j = 0; j < Math.min(cols.statusCount(i), limit); j++) {
        const c = cols.status(i, j);
        if (c !== 99 && c !== 112) continue;
        total++;
        if (perStep && offset + j < perStep.length) perStep[offset + j]++;
      }
      return total;
    };
    const query = fc.record({ limit: fc.integer({ min: 0, max: 50 }), offset: fc.integer({ min: 0, max: 3 }), perStep: fc.boolean() });
    fc.assert(
      fc.property(fc.array(summary, { minLength: 1, maxLength: 60 }), fc.array(query, { maxLength: 20 }), (list, queries) => {
        const cols = SummaryColumns.from(list);
        const [got, want] = [new Float64Array(30), new Float64Array(30)];
        queries.forEach(({ limit, offset, perStep }, q) => {
          const i = q % list.length;
          expect(cols.locallyCorrect(i, limit, perStep ? got : null, offset)).toBe(
            reference(cols, i, limit, perStep ? want : null, offset),
          );
        });
        expect(got).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  it("gives the run's step counts as counting each step did", () => {
    // the counts as written before (one status read per step)
    const reference = (g: SummaryColumns) => {
      let maxLen = 0;
      for (let i = 0; i < g.n; i++) if (g.statusCount(i) > 0 && g.length[i] > maxLen) maxLen = g.length[i];
      const rows = Array.from({ length: maxLen }, (_, i) => ({ step: i + 1, n: 0, taskCorrect: 0, stepCorrect: 0, firstDivergences: 0 }));
      for (let k = 0; k < g.n; k++) {
        const count = g.statusCount(k);
        if (count === 0) continue;
        const fd = g.firstDiv[k] < 0 ? Infinity : g.firstDiv[k];
        for (let i = 0; i < g.length[k]; i++) {
          rows[i].n++;
          if (fd > i + 1) rows[i].taskCorrect++;
          const c = i < count ? g.status(k, i) : 0;
          if (c === 99 || c === 112) rows[i].stepCorrect++;
        }
        if (fd !== Infinity) rows[fd - 1].firstDivergences++;
      }
      return rows;
    };
    // a first divergence within the trace's length, as analysis gives
    const traced = summary.map((s) => ({
      ...s,
      firstDivergence: s.firstDivergence === null || s.length === 0 ? null : 1 + (s.firstDivergence % s.length),
    }));
    fc.assert(
      fc.property(fc.array(traced, { maxLength: 80 }), (list) => {
        const cols = SummaryColumns.from(list);
        expect(stepCounts(cols)).toEqual(reference(cols));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps traces that fill, cross and exceed its status blocks (2^20 steps each)", () => {
    const block = 1 << 20;
    const traces = [
      "c".repeat(block - 3), // nearly fills the first block
      "cspm", // does not fit: starts the second
      "s".repeat(block + 5) + "m", // longer than a block: one of its own
      "pc", // after it, a fresh block
      "", // no steps
      "m".repeat(2 * block + 1),
      "cp".repeat(block / 2), // exactly one block
      "mcsp".repeat(block / 4 - 1) + "mcs", // one status short of a block
      "cc",
    ];
    const cols = new SummaryColumns(2);
    traces.forEach((t, i) => cols.push(base(t, `i${i}`)));
    traces.forEach((t, i) => {
      expect(cols.statusCount(i)).toBe(t.length);
      if (t.length === 0) return;
      for (const j of [0, 1, t.length - 2, t.length - 1, t.length >> 1]) {
        if (j >= 0 && j < t.length) expect(String.fromCharCode(cols.status(i, j))).toBe(t[j]);
      }
    });
    const correct = (t: string) => [...t].filter((c) => c === "c" || c === "p").length;
    traces.forEach((t, i) => expect(cols.locallyCorrect(i, t.length)).toBe(correct(t)));
    const perStep = new Float64Array(8);
    expect(cols.locallyCorrect(6, 7, perStep, 1)).toBe(7);
    expect([...perStep]).toEqual([0, 1, 1, 1, 1, 1, 1, 1]);
    expect(cols.get(3).statuses).toBe("pc");
    expect(cols.get(1).statuses).toBe("cspm");
    expect(cols.get(traces.length - 1).statuses).toBe("cc");
  });

  it("refuses a status letter it cannot pack", () => {
    expect(() => new SummaryColumns().push(base("cxc", "i"))).toThrow(/unknown step status letter "x"/);
  });

  it("numbers items by first appearance and keeps one index per key", () => {
    const cols = new SummaryColumns();
    for (const k of ["x", "y", "x"]) cols.push(base("cc", k));
    expect([...cols.item.subarray(0, 3)]).toEqual([0, 1, 0]);
    expect(cols.items).toBe(2);
    expect(cols.get(2).itemKey).toBe("x");
    expect(() => cols.itemAt(2)).toThrow(/numbered by key and by the source/);
  });

  it("takes the numbers a load's reader gave its items", () => {
    const cols = new SummaryColumns();
    expect(cols.itemAt(0)).toBe(true);
    expect(cols.itemAt(1)).toBe(true);
    expect(cols.itemAt(0)).toBe(false);
    expect(() => cols.itemAt(3)).toThrow(/numbered before item 2/);
    expect(cols.items).toBe(2);
    cols.push(base("c", "y"), 1);
    expect(cols.item[0]).toBe(1);
    expect(() => cols.push(base("c", "w"))).toThrow(/numbered by key and by the source/);
  });
});
