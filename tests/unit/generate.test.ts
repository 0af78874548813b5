import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRng, hashSeed } from "../../lib/generate/rng";
import { arithItems, arithReference, drawArithInput, validateArith, MAX_MAGNITUDE, type OpMode } from "../../lib/generate/arith";
import { makeDictionary, runningSums, selfConditioningItems, turnSums, dictSumItems } from "../../lib/generate/dictsum";
import { generateDataset, generateOptionsSchema, generateRun } from "../../lib/generate/dataset";
import { buildMessages, PROMPT_VERSION, replyCount } from "../../lib/generate/prompts";
import { formatNumber } from "../../lib/generate/format";
import { generateCommand } from "../../lib/cli/commands/generate";

const collect = (it: Iterable<string>) => [...it].join("\n") + "\n";

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
    const items = [...arithItems({ lengths: [25, 5], itemsPerLength: 3, seed: 1, lookback: 3, inputRange: [1, 10], ops: "mixed", decimals: 3 })];
    expect(items.map((i) => i.id)).toEqual(["arith-lb3-0001", "arith-lb3-0002", "arith-lb3-0003", "arith-lb3-0004", "arith-lb3-0005", "arith-lb3-0006"]);
    expect(items.map((i) => i.length)).toEqual([25, 25, 25, 5, 5, 5]);
    const ops = new Set(items.flatMap((i) => i.input.steps.map((s) => s.op)));
    expect([...ops].sort()).toEqual(["*", "+", "-", "/"]);
  });

  it("draws integers with decimals 0 and rejects impossible settings clearly", () => {
    const inp = drawArithInput(createRng(3), 10, { lookback: 3, inputRange: [1, 9], ops: "mixed", decimals: 0 });
    expect(Number.isInteger(inp.x) && Number.isInteger(inp.y)).toBe(true);
    expect(() => drawArithInput(createRng(3), 95, { lookback: 3, inputRange: [10, 100], ops: "*", decimals: 3 })).toThrow(/cannot draw a valid procedure/);
    expect(() => generateRun({ benchmark: "procedural-arith", lengths: [95], ops: "*", inputRange: [10, 100] })).toThrow(/length 95/);
  });

  it("does not change existing items when the grid grows", () => {
    const small = [...arithItems({ lengths: [15], itemsPerLength: 3, seed: 5, lookback: 3, inputRange: [1, 10], ops: "mixed", decimals: 3 })];
    const big = [...arithItems({ lengths: [5, 15], itemsPerLength: 5, seed: 5, lookback: 3, inputRange: [1, 10], ops: "mixed", decimals: 3 })];
    expect(big.filter((i) => i.length === 15).slice(0, 3).map((i) => i.input)).toEqual(small.map((i) => i.input));
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

describe("datasets", () => {
  it("same options → identical bytes; another seed differs", () => {
    const opts = { benchmark: "procedural-arith" as const, lengths: [5, 25], itemsPerLength: 5, seed: 11, simulate: "beta" };
    const a = collect(generateDataset(opts));
    expect(collect(generateDataset(opts))).toBe(a);
    expect(collect(generateDataset({ ...opts, seed: 12 }))).not.toBe(a);
    const d = { benchmark: "dict-sum" as const, lengths: [10], itemsPerLength: 3, seed: 2, k: 2, simulate: "gamma" };
    expect(collect(generateDataset(d))).toBe(collect(generateDataset(d)));
  });

  it("writes a run line then items; datasets have no output", () => {
    const lines = [...generateDataset({ benchmark: "dict-sum", lengths: [4, 8], itemsPerLength: 2, seed: 1, dictSize: 20 })].map((l) => JSON.parse(l));
    expect(lines[0].type).toBe("run");
    expect(lines[0].benchmark).toBe("dict-sum");
    expect(Object.keys(lines[0].variant.dictionary)).toHaveLength(20);
    expect(lines[0].variant).toMatchObject({ name: "dict20-k1-multi", K: 1, multi_turn: true });
    expect(lines.slice(1).map((l) => [l.type, l.length, "output" in l])).toEqual([
      ["item", 4, false], ["item", 4, false], ["item", 8, false], ["item", 8, false],
    ]);
  });

  it("self-conditioning runs carry target_turn and the rates", () => {
    const [run, first] = [...generateDataset({ benchmark: "dict-sum", selfConditioning: true, rates: [0.5], targetTurn: 10, itemsPerLength: 2, seed: 1, simulate: "alpha" })].map((l) => JSON.parse(l));
    expect(run.config).toMatchObject({ target_turn: 10, induced_error_rate: 0.5, induced_error_rates: [0.5] });
    expect(first.input.shown).toHaveLength(9);
    expect(typeof first.output).toBe("string");
  });

  it("validates options and names the option", () => {
    const bad = generateOptionsSchema.safeParse({ benchmark: "procedural-arith", lengths: [2], lookback: 1 });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => i.path[0]);
    expect(paths).toContain("lookback");
    expect(paths).toContain("lengths");
    expect(generateOptionsSchema.safeParse({ benchmark: "dict-sum" }).success).toBe(false);
    expect(generateOptionsSchema.safeParse({ benchmark: "dict-sum", selfConditioning: true }).success).toBe(true);
    expect(generateOptionsSchema.safeParse({ benchmark: "dict-sum", lengths: [3], simulate: "nobody" }).success).toBe(false);
  });

  it("streams: a huge dataset starts at once, 50,000 items go through in constant memory", () => {
    const t0 = Date.now();
    const gen = generateDataset({ benchmark: "procedural-arith", lengths: [95], itemsPerLength: 10_000_000, seed: 1 });
    expect(gen.next().done).toBe(false);
    expect(gen.next().done).toBe(false);
    expect(Date.now() - t0).toBeLessThan(10_000); // eager generation of 10^7 items would take minutes;

    const heap0 = process.memoryUsage().heapUsed;
    let n = 0;
    let bytes = 0;
    for (const line of generateDataset({ benchmark: "procedural-arith", lengths: [5, 15, 25, 35, 55], itemsPerLength: 10_000, seed: 3 })) {
      n++;
      bytes += line.length;
    }
    expect(n).toBe(50_001);
    expect(bytes).toBeGreaterThan(10_000_000);
    // laziness is proven above; this only guards against gross retention (GC timing varies)
    expect(process.memoryUsage().heapUsed - heap0).toBeLessThan(150 * 1024 * 1024);
    expect(Date.now() - t0).toBeLessThan(30_000);
  });
});

describe("generate command", () => {
  const dir = mkdtempSync(join(tmpdir(), "stepwise-gen-"));
  let err = "";
  const spyErr = () => vi.spyOn(process.stderr, "write").mockImplementation((s) => ((err += String(s)), true));
  afterEach(() => {
    vi.restoreAllMocks();
    err = "";
  });

  it("writes the same bytes as generateDataset", async () => {
    const out = join(dir, "a.jsonl");
    const code = await generateCommand([
      "--benchmark", "procedural-arith", "--lengths", "5,15", "--items-per-length", "3", "--seed", "4",
      "--lookback", "5", "--input-range", "0,1", "--simulate", "alpha", "--out", out,
    ]);
    expect(code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(
      collect(generateDataset({ benchmark: "procedural-arith", lengths: [5, 15], itemsPerLength: 3, seed: 4, lookback: 5, inputRange: [0, 1], simulate: "alpha" })),
    );
  });

  it("dict-sum flags", async () => {
    const out = join(dir, "d.jsonl");
    const code = await generateCommand([
      "--benchmark", "dict-sum", "--self-conditioning", "--rates", "0,1", "--target-turn", "12", "--items-per-length", "2",
      "--dict-size", "30", "--value-range", "-9,9", "--k", "2", "--simulate-p", "0.9", "--model", "M", "--run-key", "rk", "--out", out,
    ]);
    expect(code).toBe(0);
    const lines = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ key: "rk", model: { name: "M" }, variant: { K: 2, dict_size: 30, value_range: [-9, 9] }, config: { target_turn: 12 } });
    expect(lines).toHaveLength(5);
    expect(lines[1].input.keys).toHaveLength(24);
  });

  it("errors name the flag", async () => {
    spyErr();
    expect(await generateCommand(["--benchmark", "procedural-arith", "--lengths", "5,x", "--out", "-"])).toBe(2);
    expect(err).toContain("--lengths");
    err = "";
    expect(await generateCommand(["--benchmark", "procedural-arith", "--lengths", "5", "--lookback", "1", "--out", "-"])).toBe(2);
    expect(err).toContain("--lookback");
    err = "";
    expect(await generateCommand(["--benchmark", "dict-sum", "--lengths", "5"])).toBe(2);
    expect(err).toContain("--out");
    err = "";
    expect(await generateCommand(["--benchmark", "dict-sum", "--lengths", "5", "--simulate", "zzz", "--out", "-"])).toBe(2);
    expect(err).toContain("--simulate");
    err = "";
    expect(await generateCommand(["--nope"])).toBe(2);
    expect(err).toContain("--nope");
  });

  it("prints help", async () => {
    let out = "";
    vi.spyOn(process.stdout, "write").mockImplementation((s) => ((out += String(s)), true));
    expect(await generateCommand(["--help"])).toBe(0);
    expect(out).toContain("--items-per-length");
    expect(out).toContain("--self-conditioning");
  });
});
