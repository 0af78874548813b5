import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NativeReader } from "../../lib/native/reader";
import { EXAMPLES } from "../helpers/fixtures";

function feed(lines: string[], opts?: { maxErrors?: number }) {
  const r = new NativeReader("t.jsonl", opts);
  const events = lines.map((l, i) => r.line(l, i + 1)).filter((e) => e !== null);
  events.push(...r.end());
  return { events, errors: r.errors };
}

const RUN = JSON.stringify({
  type: "run",
  key: "k1",
  model: { name: "M" },
  benchmark: "procedural-arith",
  variant: { name: "v", lookback: 3 },
});
const item = (id: string, extra: object = {}) =>
  JSON.stringify({
    type: "item",
    id,
    length: 4,
    input: {
      x: 2,
      y: 3,
      steps: [
        { op: "+", a: 1, b: 2 },
        { op: "*", a: 3, b: 1 },
      ],
    },
    output: "S1 = 2\nS2 = 3\nS3 = 5\nS4 = 10\n<answer>10</answer>",
    ...extra,
  });

describe("NativeReader on invalid.jsonl", () => {
  it("reports every (line, field) of invalid.expected.txt, naming the file", () => {
    const file = "invalid.jsonl";
    const r = new NativeReader(file);
    fs.readFileSync(path.join(EXAMPLES, file), "utf8")
      .split("\n")
      .forEach((l, i) => r.line(l, i + 1));
    r.end();
    const want = fs
      .readFileSync(path.join(EXAMPLES, "invalid.expected.txt"), "utf8")
      .split("\n")
      .filter((l) => l.startsWith("line "))
      .map((l) => l.split("|").map((s) => s.trim()))
      .map(([line, field]) => `${Number(line.slice(5))} ${field}`);
    const got = new Set(r.errors.map((e) => `${e.line} ${e.field}`));
    for (const w of want) expect(got.has(w), w).toBe(true);
    expect(r.errors.every((e) => e.file === file && e.message.length > 0)).toBe(true);
    expect(r.errors.find((e) => e.line === 6)!.message).toBe("invalid JSON (the line is cut off)");
  });
});

describe("NativeReader", () => {
  it("emits a run event, then generation events carrying the analysis", () => {
    const { events, errors } = feed([RUN, "", "   ", item("a"), item("b")]);
    expect(errors).toEqual([]);
    expect(events.map((e) => e.kind)).toEqual(["run", "generation", "generation"]);
    const g = events[1];
    expect(g.kind === "generation" && g.analysis.clean && g.line === 4 && g.item.epoch === 0).toBe(true);
  });

  it("fills length from the input when the line omits it", () => {
    const line = JSON.stringify({ ...JSON.parse(item("a")), length: undefined });
    const { events } = feed([RUN, line]);
    expect(events[1].kind === "generation" && events[1].item.length).toBe(4);
  });

  it("rejects a duplicate (id, epoch) within a run but not across epochs or runs", () => {
    const run2 = RUN.replace('"k1"', '"k2"');
    const { errors } = feed([RUN, item("a"), item("a", { epoch: 1 }), item("a"), run2, item("a")]);
    expect(errors.map((e) => [e.line, e.field])).toEqual([[4, "id"]]);
  });

  it("rejects a run key given twice in one file", () => {
    expect(feed([RUN, RUN]).errors.map((e) => [e.line, e.field])).toEqual([[2, "key"]]);
  });

  it("reports a length that disagrees with the procedure, an unknown benchmark and a bad tolerance", () => {
    const badRun = JSON.stringify({
      type: "run",
      key: "x",
      model: "M",
      benchmark: "chess",
      variant: "v",
      config: { tolerance: { abs: "big" } },
    });
    const { errors } = feed([RUN, item("a", { length: 5 }), badRun]);
    expect(errors.map((e) => `${e.line} ${e.field}`)).toEqual(["2 length", "3 benchmark", "3 config.tolerance"]);
  });

  it("reports a wrong multi-turn output shape with its field", () => {
    const run = JSON.stringify({
      type: "run",
      key: "d",
      model: { name: "M" },
      benchmark: "dict-sum",
      variant: { name: "v", K: 1, multi_turn: true, dictionary: { a: 1, b: 2 } },
    });
    const ok = JSON.stringify({ type: "item", id: "1", input: { keys: ["a", "b"] }, output: ["<answer>1</answer>", "<answer>3</answer>"] });
    const short = JSON.stringify({ type: "item", id: "2", input: { keys: ["a", "b"] }, output: ["<answer>1</answer>"] });
    const notText = JSON.stringify({ type: "item", id: "3", input: { keys: ["a", "b"] }, output: ["<answer>1</answer>", 3] });
    const text = JSON.stringify({ type: "item", id: "4", input: { keys: ["a", "b"] }, output: "<answer>1,3</answer>" });
    const { errors, events } = feed([run, ok, short, notText, text]);
    expect(errors.map((e) => `${e.line} ${e.field}`)).toEqual(["3 output", "4 output[1]", "5 output"]);
    expect(events.filter((e) => e.kind === "generation").length).toBe(1);
  });

  it("keeps going after errors and caps them with one final entry", () => {
    const { errors } = feed(
      Array.from({ length: 30 }, () => "{oops"),
      { maxErrors: 10 },
    );
    expect(errors.length).toBe(11);
    expect(errors[10].message).toMatch(/too many errors/);
    expect(errors[0].message).toMatch(/^invalid JSON/);
  });

  it("reports a file without any run line, and a non-object line", () => {
    expect(feed([]).errors.map((e) => e.message)).toEqual(["the file holds no run line"]);
    expect(feed([RUN, "[1,2]"]).errors.map((e) => [e.line, e.field])).toEqual([[2, "-"]]);
  });

  it("keeps unknown extra fields of run and item lines", () => {
    const { events } = feed([RUN.replace('"type":"run"', '"type":"run","harness_extra":{"a":1}'), item("a", { custom: true })]);
    expect(events[0].kind === "run" && (events[0].header as unknown as Record<string, unknown>).harness_extra).toEqual({ a: 1 });
    expect(events[1].kind === "generation" && (events[1].item as unknown as Record<string, unknown>).custom).toBe(true);
  });
});
