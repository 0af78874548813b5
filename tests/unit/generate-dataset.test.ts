import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateDataset, generateOptionsSchema } from "../../lib/generate/dataset";
import { generateCommand } from "../../lib/cli/commands/generate";

const collect = (it: Iterable<string>) => [...it].join("\n") + "\n";

// Datasets and the `stepwise generate` command (items and prompts: generate.test.ts).
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
    const lines = [...generateDataset({ benchmark: "dict-sum", lengths: [4, 8], itemsPerLength: 2, seed: 1, dictSize: 20 })].map((l) =>
      JSON.parse(l),
    );
    expect(lines[0].type).toBe("run");
    expect(lines[0].benchmark).toBe("dict-sum");
    expect(Object.keys(lines[0].variant.dictionary)).toHaveLength(20);
    expect(lines[0].variant).toMatchObject({ name: "dict20-k1-multi", K: 1, multi_turn: true });
    expect(lines.slice(1).map((l) => [l.type, l.length, "output" in l])).toEqual([
      ["item", 4, false],
      ["item", 4, false],
      ["item", 8, false],
      ["item", 8, false],
    ]);
  });

  it("self-conditioning runs carry target_turn and the rates", () => {
    const [run, first] = [
      ...generateDataset({
        benchmark: "dict-sum",
        selfConditioning: true,
        rates: [0.5],
        targetTurn: 10,
        itemsPerLength: 2,
        seed: 1,
        simulate: "alpha",
      }),
    ].map((l) => JSON.parse(l));
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
      "--benchmark",
      "procedural-arith",
      "--lengths",
      "5,15",
      "--items-per-length",
      "3",
      "--seed",
      "4",
      "--lookback",
      "5",
      "--input-range",
      "0,1",
      "--simulate",
      "alpha",
      "--out",
      out,
    ]);
    expect(code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(
      collect(
        generateDataset({
          benchmark: "procedural-arith",
          lengths: [5, 15],
          itemsPerLength: 3,
          seed: 4,
          lookback: 5,
          inputRange: [0, 1],
          simulate: "alpha",
        }),
      ),
    );
  });

  it("dict-sum flags", async () => {
    const out = join(dir, "d.jsonl");
    const code = await generateCommand([
      "--benchmark",
      "dict-sum",
      "--self-conditioning",
      "--rates",
      "0,1",
      "--target-turn",
      "12",
      "--items-per-length",
      "2",
      "--dict-size",
      "30",
      "--value-range",
      "-9,9",
      "--k",
      "2",
      "--simulate-p",
      "0.9",
      "--model",
      "M",
      "--run-key",
      "rk",
      "--out",
      out,
    ]);
    expect(code).toBe(0);
    const lines = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({
      key: "rk",
      model: { name: "M" },
      variant: { K: 2, dict_size: 30, value_range: [-9, 9] },
      config: { target_turn: 12 },
    });
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
