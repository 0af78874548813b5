import { describe, expect, it } from "vitest";
import { createRng, hashSeed } from "../../lib/generate/rng";
import { arithItems, arithReference, drawArithInput, validateArith, MAX_MAGNITUDE, type OpMode } from "../../lib/generate/arith";
import { makeDictionary, runningSums, selfConditioningItems, turnSums, dictSumItems } from "../../lib/generate/dictsum";
import { generateRun } from "../../lib/generate/dataset";
import { buildMessages, PROMPT_VERSION, replyCount } from "../../lib/generate/prompts";
import { formatNumber } from "../../lib/generate/format";

describe("rng", () => {
  it("is deterministic and seed-sensitive", () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const sa = Array.from({ length: 50 }, () => a.next());
    expect(Array.from({ length: 50 }, () => b.next())).toEqual(sa);
    expect(Array.from({ length: 50 }, () => c.next())).not.toEqual(sa);
    // pinned values: a change of algorithm would silently change every dataset
    expect(createRng(1).int(0, 1_000_000)).toBe(createRng(1).int(0, 1_000_000));
    expect(hashSeed(1, "a")).not.toBe(hashSeed("1", "a"));
    expect(hashSeed("ab", "c")).not.toBe(hashSeed("a", "bc"));
  });

  it("stays in range and is roughly uniform", () => {
    const r = createRng("u");
    const counts = [0, 0, 0, 0, 0];
    for (let i = 0; i < 50_000; i++) {
      const v = r.int(-2, 2);
      expect(v).toBeGreaterThanOrEqual(-2);
      expect(v).toBeLessThanOrEqual(2);
      counts[v + 2]++;
    }
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
    let s = 0;
    let s2 = 0;
    for (let i = 0; i < 20_000; i++) {
      const x = r.normal(3, 2);
      s += x;
      s2 += x * x;
    }
    expect(s / 20_000).toBeCloseTo(3, 1);
    expect(Math.sqrt(s2 / 20_000 - (s / 20_000) ** 2)).toBeCloseTo(2, 1);
    const sh = r.shuffle([1, 2, 3, 4, 5, 6]);
    expect([...sh].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(r.fork("x").next()).toBe(r.fork("x").next());
  });
});

describe("procedural-arith items", () => {
  const settings: [number, [number, number], OpMode][] = [
    [2, [1, 10], "mixed"],
    [3, [1, 10], "mixed"],
    [5, [0, 1], "mixed"],
    [7, [10, 100], "mixed"],
    [3, [1, 10], "-"],
    [3, [1, 10], "/"],
    [4, [0, 1], "*"],
    [7, [10, 100], "+"],
  ];
  it.each(settings)("lookback %i, range %j, ops %s: valid references, look-back respected", (lookback, inputRange, ops) => {
    let n = 0;
    for (const it of arithItems({ lengths: [3, 5, 15, 35, 95], itemsPerLength: 20, seed: 9, lookback, inputRange, ops, decimals: 3 })) {
      n++;
      const { x, y, steps } = it.input;
      expect(steps.length).toBe(it.length - 2);
      for (const v of [x, y]) {
        expect(v).toBeGreaterThanOrEqual(inputRange[0]);
        expect(v).toBeLessThanOrEqual(inputRange[1]);
        expect(Math.round(v * 1000) / 1000).toBe(v);
      }
      steps.forEach((st, i) => {
        const j = i + 3;
        expect(st.a).not.toBe(st.b);
        for (const o of [st.a, st.b]) {
          expect(o).toBeGreaterThanOrEqual(Math.max(1, j - lookback));
          expect(o).toBeLessThanOrEqual(j - 1);
        }
        if (ops !== "mixed") expect(st.op).toBe(ops);
      });
      const ref = arithReference(it.input);
      expect(ref.length).toBe(it.length);
      for (const v of ref) {
        expect(Number.isFinite(v)).toBe(true);
        expect(Math.abs(v)).toBeLessThanOrEqual(MAX_MAGNITUDE);
      }
      expect(validateArith(it.input, lookback)).toBeNull();
    }
    expect(n).toBe(100);
  });

  it("uses all four operations in mixed mode and numbers ids", () => {
    const items = [
      ...arithItems({ lengths: [25, 5], itemsPerLength: 3, seed: 1, lookback: 3, inputRange: [1, 10], ops: "mixed", decimals: 3 }),
    ];
    expect(items.map((i) => i.id)).toEqual([
      "arith-lb3-0001",
      "arith-lb3-0002",
      "arith-lb3-0003",
      "arith-lb3-0004",
      "arith-lb3-0005",
      "arith-lb3-0006",
    ]);
    expect(items.map((i) => i.length)).toEqual([25, 25, 25, 5, 5, 5]);
    const ops = new Set(items.flatMap((i) => i.input.steps.map((s) => s.op)));
    expect([...ops].sort()).toEqual(["*", "+", "-", "/"]);
  });

  it("draws integers with decimals 0 and rejects impossible settings clearly", () => {
    const inp = drawArithInput(createRng(3), 10, { lookback: 3, inputRange: [1, 9], ops: "mixed", decimals: 0 });
    expect(Number.isInteger(inp.x) && Number.isInteger(inp.y)).toBe(true);
    expect(() => drawArithInput(createRng(3), 95, { lookback: 3, inputRange: [10, 100], ops: "*", decimals: 3 })).toThrow(
      /cannot draw a valid procedure/,
    );
    expect(() => generateRun({ benchmark: "procedural-arith", lengths: [95], ops: "*", inputRange: [10, 100] })).toThrow(/length 95/);
  });

  it("does not change existing items when the grid grows", () => {
    const small = [
      ...arithItems({ lengths: [15], itemsPerLength: 3, seed: 5, lookback: 3, inputRange: [1, 10], ops: "mixed", decimals: 3 }),
    ];
    const big = [
      ...arithItems({ lengths: [5, 15], itemsPerLength: 5, seed: 5, lookback: 3, inputRange: [1, 10], ops: "mixed", decimals: 3 }),
    ];
    expect(
      big
        .filter((i) => i.length === 15)
        .slice(0, 3)
        .map((i) => i.input),
    ).toEqual(small.map((i) => i.input));
  });
});

describe("dict-sum items", () => {
  it("builds a dictionary of distinct five-letter words in the value range", () => {
    const d = makeDictionary(7, 500, [-99, 99]);
    const words = Object.keys(d);
    expect(words.length).toBe(500);
    for (const w of words) expect(w).toMatch(/^[a-z]{5}$/);
    for (const v of Object.values(d)) {
      expect(Number.isInteger(v)).toBe(true);
      expect(Math.abs(v)).toBeLessThanOrEqual(99);
    }
    expect(makeDictionary(7, 500, [-99, 99])).toEqual(d);
    expect(makeDictionary(8, 500, [-99, 99])).not.toEqual(d);
  });

  it("multi-turn and single-turn shapes, turn sums", () => {
    const dict = makeDictionary(1, 50, [-5, 5]);
    const items = [...dictSumItems({ seed: 1, lengths: [7, 12], itemsPerLength: 2, dictionary: dict, K: 3, multiTurn: true })];
    expect(items.map((i) => i.input.keys.length)).toEqual([7, 7, 12, 12]);
    for (const it of items) for (const k of it.input.keys) expect(dict[k]).toBeDefined();
    const keys = items[0].input.keys;
    const sums = runningSums(keys, dict);
    expect(turnSums(keys, dict, 3)).toEqual([sums[2], sums[5], sums[6]]);
    const header = { benchmark: "dict-sum", variant: { name: "v", K: 3, dictionary: dict } };
    expect(replyCount(header, items[0])).toBe(3);
    const m = buildMessages(header, items[0], ["<answer>1</answer>"]);
    expect(m.map((x) => x.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(m[3].content).toBe(`Keys: ${keys.slice(3, 6).join(", ")}`);
    const single = buildMessages({ ...header, variant: { ...header.variant, multi_turn: false } }, items[0]);
    expect(single).toHaveLength(1);
    expect(single[0].content).toContain("Turn 3: " + keys[6]);
  });

  it("self-conditioning: shown history corrupted at the induced rate, same keys across rates", () => {
    const dict = makeDictionary(2, 100, [-99, 99]);
    const items = [...selfConditioningItems({ seed: 3, dictionary: dict, K: 1, targetTurn: 100, rates: [0, 0.5, 1], itemsPerRate: 40 })];
    expect(items).toHaveLength(120);
    const byRate = new Map<number, number[]>();
    for (const it of items) {
      expect(it.length).toBe(100);
      expect(it.input.keys).toHaveLength(100);
      expect(it.input.shown).toHaveLength(99);
      const truth = runningSums(it.input.keys, dict).slice(0, 99);
      const wrong = it.input.shown.filter((v, i) => v !== truth[i]).length;
      byRate.set(it.input.induced_error_rate, [...(byRate.get(it.input.induced_error_rate) ?? []), wrong / 99]);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(byRate.get(0)!)).toBe(0);
    expect(Math.abs(mean(byRate.get(0.5)!) - 0.5)).toBeLessThan(0.05);
    expect(mean(byRate.get(1)!)).toBe(1);
    expect(items[0].input.keys).toEqual(items[40].input.keys);
    expect(items[0].id).toBe("sc-r0-0001");
    const msgs = buildMessages({ benchmark: "dict-sum", variant: { name: "v", K: 1, dictionary: dict } }, items[45]);
    expect(msgs).toHaveLength(1 + 2 * 99 + 1);
    expect(msgs[2]).toEqual({ role: "assistant", content: `<answer>${items[45].input.shown[0]}</answer>` });
  });
});

describe("prompts", () => {
  it("asks for the exact formats the parsers read", () => {
    const [item] = arithItems({ lengths: [6], itemsPerLength: 1, seed: 1, lookback: 3, inputRange: [1, 10], ops: "mixed", decimals: 3 });
    const msgs = buildMessages({ benchmark: "procedural-arith", variant: { name: "v" } }, item);
    const text = msgs.map((m) => m.content).join("\n");
    expect(text).toContain("S<j> = S<a> <op> S<b> = <value of S<a>> <op> <value of S<b>> = <result>");
    expect(text).toContain("<answer>NUMBER</answer>");
    expect(text).toContain(`S3 = S${item.input.steps[0].a} ${item.input.steps[0].op} S${item.input.steps[0].b}`);
    expect(PROMPT_VERSION).toMatch(/v\d+/);
  });

  it("formats numbers as plain decimals", () => {
    expect(formatNumber(6.725459932285755e-5)).toBe("0.0000672546");
    expect(formatNumber(-29741.732861516906)).toBe("-29741.7329");
    expect(formatNumber(1.5e-7)).not.toMatch(/e/);
    expect(formatNumber(-0)).toBe("0");
  });
});
