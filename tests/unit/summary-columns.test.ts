import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SummaryColumns } from "../../lib/analysis/summary-columns";
import { computeExtras } from "../../lib/analysis/metrics-extras";
import { roundTo } from "../../lib/analysis/numbers";
import type { GenerationSummary, RunHeader } from "../../lib/analysis/types";
import { stepCounts } from "../../lib/store/aggregates";
import { studyLengthRows } from "../../lib/store/study-aggregates";

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

// a first divergence within the trace's length, as analysis gives
const traced = summary.map((s) => ({
  ...s,
  firstDivergence: s.firstDivergence === null || s.length === 0 ? null : 1 + (s.firstDivergence % s.length),
}));

describe("SummaryColumns", () => {
  it("gives back every summary pushed, across growth and optional columns", () => {
    fc.assert(
      fc.property(fc.array(summary, { maxLength: 200 }), (list) => {
        const cols = new SummaryColumns(1); // grows many times
        for (const s of list) cols.push(s);
        expect(cols.n).toBe(list.length);
        const noUsage = { promptTokens: null, completionTokens: null, latencyMs: null, costUsd: null };
        expect(Array.from({ length: cols.n }, (_, i) => cols.get(i))).toEqual(
          list.map(({ statuses, epoch: _epoch, ...s }) => ({ ...s, ...noUsage, hasSteps: statuses.length > 0 })),
        );
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

  it("keeps lengths and first divergences past 16 bits, whenever the first such one comes", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.oneof(
              { arbitrary: fc.integer({ min: 1, max: 120 }), weight: 4 },
              { arbitrary: fc.integer({ min: 32_700, max: 2 ** 30 }), weight: 1 },
            ),
            fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
            fc.boolean(),
          ),
          { maxLength: 60 },
        ),
        (gens) => {
          const cols = new SummaryColumns(1);
          // a first divergence within the length, or (the columns do not rely on it) past it
          const pushed = gens.map(([length, at, past], k) => ({
            ...base("", `item-${k}`),
            length,
            firstDivergence: at === null ? null : past ? length + 40_000 : 1 + Math.floor(at * (length - 1)),
          }));
          for (const s of pushed) cols.push(s);
          expect(Array.from({ length: cols.n }, (_, i) => [cols.get(i).length, cols.firstDivergence(i)])).toEqual(
            pushed.map((s) => [s.length, s.firstDivergence]),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it("sums the statuses as counting each pushed summary's steps one by one does", () => {
    const ok = (c: string) => c === "c" || c === "p";
    const reference = (list: GenerationSummary[]) => {
      const [okByStep, okByStepInLength, okLastByLength, cByLength, c2ByLength] = [[], [], [], [], []] as number[][];
      const add = (a: number[], k: number, v = 1) => (a[k] = (a[k] ?? 0) + v);
      let [localTotal, stepsTotal] = [0, 0];
      for (const { statuses, length } of list) {
        if (statuses.length === 0) continue;
        let c = 0;
        [...statuses].forEach((s, j) => {
          if (!ok(s)) return;
          add(okByStep, j);
          localTotal++;
          if (j >= length) return;
          add(okByStepInLength, j);
          c++;
        });
        if (length >= 1 && length - 1 < statuses.length && ok(statuses[length - 1])) add(okLastByLength, length);
        add(cByLength, length, c);
        add(c2ByLength, length, c * c);
        stepsTotal += statuses.length;
      }
      return { okByStep, okByStepInLength, okLastByLength, cByLength, c2ByLength, localTotal, stepsTotal };
    };
    /** a sum's array as a plain list, without the zeros past its last entry */
    const dense = (a: ArrayLike<number>) => {
      const out = Array.from(a, (v) => v ?? 0);
      while (out.length && out[out.length - 1] === 0) out.pop();
      return out;
    };
    fc.assert(
      fc.property(fc.array(summary, { maxLength: 80 }), (list) => {
        const t = SummaryColumns.from(list).steps;
        const want = reference(list);
        for (const k of ["okByStep", "okByStepInLength", "okLastByLength", "cByLength", "c2ByLength"] as const)
          expect(dense(t[k]), k).toEqual(dense(want[k]));
        expect([t.localTotal, t.stepsTotal]).toEqual([want.localTotal, want.stepsTotal]);
      }),
      { numRuns: 300 },
    );
    // a trace of 300,000 steps grows the sums by step
    const long = SummaryColumns.from([base("cs".repeat(150_000), "i")]).steps;
    expect([long.okByStep[0], long.okByStep[1], long.okByStep[299_998], long.localTotal, long.stepsTotal]).toEqual([
      1, 0, 1, 150_000, 300_000,
    ]);
  });

  it("gives the run's step counts as counting each step did", () => {
    // the counts as written before (one status read per step of each summary)
    const reference = (list: GenerationSummary[]) => {
      let maxLen = 0;
      for (const s of list) if (s.statuses.length > 0 && s.length > maxLen) maxLen = s.length;
      const rows = Array.from({ length: maxLen }, (_, i) => ({ step: i + 1, n: 0, taskCorrect: 0, stepCorrect: 0, firstDivergences: 0 }));
      for (const { statuses, length, firstDivergence } of list) {
        if (statuses.length === 0) continue;
        const fd = firstDivergence ?? Infinity;
        for (let i = 0; i < length; i++) {
          rows[i].n++;
          if (fd > i + 1) rows[i].taskCorrect++;
          if (i < statuses.length && (statuses[i] === "c" || statuses[i] === "p")) rows[i].stepCorrect++;
        }
        if (fd !== Infinity) rows[fd - 1].firstDivergences++;
      }
      return rows;
    };
    fc.assert(
      fc.property(fc.array(traced, { maxLength: 80 }), (list) => {
        expect(stepCounts(SummaryColumns.from(list))).toEqual(reference(list));
      }),
      { numRuns: 300 },
    );
  });

  it("gives a dict-sum run's per-turn curves as reading each turn's last status did", () => {
    const reference = (list: GenerationSummary[], K: number) => {
      let tmax = 0;
      for (const s of list) if (s.statuses.length > 0) tmax = Math.max(tmax, Math.ceil(s.length / K));
      const [n, ok, alive] = [0, 0, 0].map(() => new Array<number>(tmax + 1).fill(0));
      for (const { statuses, length, firstDivergence } of list) {
        if (statuses.length === 0) continue;
        const fd = firstDivergence ?? -1;
        for (let t = 1; t <= Math.ceil(length / K); t++) {
          const e = Math.min(t * K, length);
          n[t]++;
          if (e - 1 < statuses.length && (statuses[e - 1] === "c" || statuses[e - 1] === "p")) ok[t]++;
          if (fd < 0 || fd > e) alive[t]++;
        }
      }
      return Array.from({ length: tmax }, (_, i) => ({ t: i + 1, n: n[i + 1], ok: ok[i + 1], alive: alive[i + 1] }));
    };
    const header = (K: number) => ({ benchmark: "dict-sum", variant: { name: "v", K } }) as unknown as RunHeader;
    const ctx = { pHat: null, taskCurve: null, coefficients: null, lmax: 0, fitsUsed: 0 };
    fc.assert(
      fc.property(fc.array(traced, { maxLength: 60 }), fc.integer({ min: 1, max: 5 }), (list, K) => {
        const got = computeExtras(header(K), SummaryColumns.from(list), ctx).per_turn;
        const want = reference(list, K);
        if (!list.some((s) => s.statuses.length > 0)) {
          expect(got).toBeNull();
          return;
        }
        expect(got!.K).toBe(K);
        expect(got!.turn_accuracy.map((p) => p.n)).toEqual(want.map((r) => r.n));
        expect(got!.turn_accuracy.map((p) => p.accuracy)).toEqual(want.map((r) => roundTo(r.ok / r.n, 6)));
        expect(got!.task_accuracy.map((p) => p.accuracy)).toEqual(want.map((r) => roundTo(r.alive / r.n, 6)));
      }),
      { numRuns: 300 },
    );
  });

  it("gives the study's per-length sums as counting each generation's locally correct steps did", () => {
    fc.assert(
      fc.property(fc.array(traced, { maxLength: 80 }), (list) => {
        const rows = studyLengthRows(SummaryColumns.from(list));
        const want = new Map<number, { c: number; cc: number; ct: number; t: number; tt: number; gens: number }>();
        for (const { statuses, length: L } of list) {
          const r = want.get(L) ?? { c: 0, cc: 0, ct: 0, t: 0, tt: 0, gens: 0 };
          want.set(L, r);
          if (statuses.length === 0) continue;
          const c = [...statuses.slice(0, L)].filter((x) => x === "c" || x === "p").length;
          Object.assign(r, { c: r.c + c, cc: r.cc + c * c, ct: r.ct + c * L, t: r.t + L, tt: r.tt + L * L, gens: r.gens + 1 });
        }
        expect([...rows.keys()]).toEqual([...want.keys()]);
        for (const [L, r] of rows) expect({ c: r.c, cc: r.cc, ct: r.ct, t: r.t, tt: r.tt, gens: r.gens }, String(L)).toEqual(want.get(L));
      }),
      { numRuns: 300 },
    );
  });

  it("refuses a status letter it cannot pack", () => {
    expect(() => new SummaryColumns().push(base("cxc", "i"))).toThrow(/unknown step status letter "x"/);
  });

  it("numbers items by first appearance and keeps one index per key", () => {
    const cols = new SummaryColumns();
    for (const k of ["x", "y", "x"]) cols.push(base("cc", k));
    expect([0, 1, 2].map((i) => cols.itemNumber(i))).toEqual([0, 1, 0]);
    expect(cols.items).toBe(2);
    expect(cols.get(2).itemKey).toBe("x");
    expect(() => cols.itemAt(2)).toThrow(/numbered by key and by the source/);
  });

  it("keeps no item numbers while each generation is of its own item, and all of them from the first that is not", () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.nat(), { nil: null }), { maxLength: 300 }), (picks) => {
        // null: a new item; a number: another generation of an item seen before
        const cols = new SummaryColumns(1);
        const numbers: number[] = [];
        let items = 0;
        for (const pick of picks) {
          const item = pick === null || items === 0 ? items : pick % items;
          if (cols.itemAt(item)) items++;
          cols.push(base("c", "-"), item);
          numbers.push(item);
        }
        expect(Array.from({ length: cols.n }, (_, i) => cols.itemNumber(i))).toEqual(numbers);
        expect(cols.items).toBe(items);
      }),
      { numRuns: 300 },
    );
  });

  it("takes the numbers a load's reader gave its items", () => {
    const cols = new SummaryColumns();
    expect(cols.itemAt(0)).toBe(true);
    expect(cols.itemAt(1)).toBe(true);
    expect(cols.itemAt(0)).toBe(false);
    expect(() => cols.itemAt(3)).toThrow(/numbered before item 2/);
    expect(cols.items).toBe(2);
    cols.push(base("c", "y"), 1);
    expect(cols.itemNumber(0)).toBe(1);
    expect(() => cols.push(base("c", "w"))).toThrow(/numbered by key and by the source/);
  });
});
