// Property-based fuzzing of the native reader (lib/native/reader.ts): random, truncated,
// mutated, huge and adversarial lines end in LineErrors naming file, line and field, or in a
// generation whose stored form can be written — never a throw, never a hang.
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NativeReader } from "../../lib/native/reader";
import { generationRow } from "../../lib/store/rows";
import { stepTraceOf } from "../../lib/store/step-trace";
import { EXAMPLES } from "../helpers/fixtures";

const FILES = ["arith-small.jsonl", "dictsum-small.jsonl", "selfcond-small.jsonl", "generic-small.jsonl", "invalid.jsonl"];
const LINES = FILES.map((f) =>
  fs
    .readFileSync(path.join(EXAMPLES, f), "utf8")
    .split("\n")
    .filter((l) => l.trim()),
);
const parses = (l: string) => {
  try {
    return typeof JSON.parse(l) === "object";
  } catch {
    return false;
  }
};
const OBJECT_LINES = LINES.map((ls) => ls.filter(parses));
const BUDGET_MS = 3_000; // per case; the real cost is milliseconds, a backtracking blow-up is not

/** Feeds lines to a fresh reader; checks every outcome is an event or a well-formed error. */
function feed(lines: string[]): { events: number; errors: number } {
  const reader = new NativeReader("fuzz.jsonl", { maxErrors: 1000 });
  const started = Date.now();
  let events = 0;
  lines.forEach((text, i) => {
    const before = reader.errors.length;
    const ev = reader.line(text, i + 1); // must not throw
    if (ev) {
      events++;
      if (ev.kind === "generation") {
        // What the loader would write must be writable (JSON.stringify of untrusted parts).
        generationRow(1, 1, 1, ev.item, ev.analysis, stepTraceOf(ev.analysis));
        stepTraceOf(ev.analysis);
        JSON.stringify(ev.item.input);
      }
    }
    for (const e of reader.errors.slice(before)) {
      expect(e.file).toBe("fuzz.jsonl");
      expect(e.line).toBe(i + 1);
      expect(typeof e.field).toBe("string");
      expect(e.message.length).toBeGreaterThan(0);
    }
  });
  reader.end();
  expect(Date.now() - started).toBeLessThan(BUDGET_MS);
  return { events, errors: reader.errors.length };
}

/** A JSON value of any type, including the awkward ones. */
const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    null,
    true,
    -0,
    1e308,
    -1e-320,
    Number.MAX_SAFE_INTEGER + 2,
    "",
    " ",
    "NaN",
    "Infinity",
    "-Infinity",
    "1e309",
    "0x10",
    "\u0000",
    "\u202e",
    "__proto__",
  ),
);

/** One valid line with one field replaced, removed, or given a hostile key. */
const mutatedLine = fc
  .tuple(fc.nat(), fc.nat(), fc.nat(), anyJson, fc.constantFrom("set", "delete", "proto", "constructor", "nested"))
  .map(([f, l, k, value, how]) => {
    const lines = OBJECT_LINES[f % OBJECT_LINES.length];
    const obj = JSON.parse(lines[l % lines.length]) as Record<string, unknown>;
    const keys = Object.keys(obj);
    const key = keys[k % keys.length];
    if (how === "set") obj[key] = value;
    else if (how === "delete") delete obj[key];
    else if (how === "nested" && obj[key] && typeof obj[key] === "object")
      (obj[key] as Record<string, unknown>)[String(value).slice(0, 8)] = value;
    let text = JSON.stringify(obj);
    // JSON.stringify drops "__proto__" set through the prototype: splice the key in as text.
    if (how === "proto" || how === "constructor")
      text = `{"${how === "proto" ? "__proto__" : "constructor"}":${JSON.stringify(value ?? {})},` + text.slice(1);
    return { run: lines[0], text };
  });

describe("native reader fuzzing", () => {
  it("random text lines: errors, never a throw", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary", maxLength: 200 }), { maxLength: 20 }), (lines) => void feed(lines)),
      { numRuns: 300, seed: 1 },
    );
  });

  it("random JSON lines (objects of any shape, any type field)", () => {
    const line = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      fc
        .dictionary(
          fc.constantFrom(
            "type",
            "id",
            "key",
            "model",
            "benchmark",
            "variant",
            "input",
            "output",
            "reference",
            "steps",
            "answer",
            "epoch",
            "length",
            "usage",
          ),
          anyJson,
        )
        .map((o) => JSON.stringify(o)),
      fc
        .record({
          type: fc.constantFrom("run", "item"),
          key: anyJson,
          id: anyJson,
          model: anyJson,
          benchmark: fc.constantFrom("procedural-arith", "dict-sum", "generic", "x"),
          variant: anyJson,
          input: anyJson,
          output: anyJson,
        })
        .map((o) => JSON.stringify(o)),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (lines) => void feed(lines)),
      { numRuns: 400, seed: 2 },
    );
  });

  it("valid example lines with one field wrong, removed or hostile", () => {
    fc.assert(
      fc.property(mutatedLine, ({ run, text }) => {
        feed([run, text]);
      }),
      { numRuns: 1500, seed: 3 },
    );
    expect(({} as Record<string, unknown>).x).toBeUndefined(); // no prototype pollution
  });

  it("valid lines cut off at any byte: 'cut off' errors", () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.double({ min: 0, max: 1, noNaN: true }), (f, l, at) => {
        const lines = LINES[f % 4];
        const text = lines[1 + (l % (lines.length - 1))];
        const cut = text.slice(0, Math.floor(at * (text.length - 1)));
        const r = new NativeReader("cut.jsonl");
        r.line(lines[0], 1);
        expect(r.line(cut, 2)).toBeNull();
        if (cut.trim()) expect(r.errors[0].message).toMatch(/invalid JSON|must be a JSON object|type/);
      }),
      { numRuns: 400, seed: 4 },
    );
  });

  it("adversarial lines: deep nesting, 10 MB strings, hostile keys, huge numbers", () => {
    const run = LINES[3][0]; // generic
    const item = (extra: string) => `{"type":"item","id":"x","reference":[1,2],"steps":[1,2],"answer":2${extra}}`;
    const cases: [string, string, RegExp | null][] = [
      ["deep metadata", item(`,"metadata":${"[".repeat(100_000)}${"]".repeat(100_000)}`), /nested deeper than 100/],
      ["deep input", item(`,"input":${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`), /nested deeper than 100/],
      ["deep and cut off", "[".repeat(1_000_000), /nested deeper|cut off/],
      // the limit itself: the line's object and metadata's arrays, 100 levels in all, pass; one more does not
      ["100 deep", item(`,"metadata":${"[".repeat(99)}${"]".repeat(99)}`), null],
      ["101 deep", item(`,"metadata":${"[".repeat(100)}${"]".repeat(100)}`), /nested deeper than 100/],
      // many brackets, shallow: in strings, and side by side
      ["brackets in a string", item(`,"output":"${"{[".repeat(5_000)}"`), null],
      ["many shallow arrays", item(`,"metadata":[${Array(500).fill("[[1]]").join(",")}]`), null],
      ["10 MB output", item(`,"output":"${"7".repeat(10_000_000)}"`), null],
      ["10 MB key", `{"type":"run","key":"${"k".repeat(10_000_000)}","model":"m","benchmark":"generic","variant":"v"}`, null],
      ["10 MB of quotes and escapes", item(`,"output":"${'\\"'.repeat(2_500_000)}"`), null],
      ["__proto__ item", `{"__proto__":{"type":"run"},"type":"item","id":"p","reference":[1],"steps":[1],"answer":1}`, null],
      ["__proto__ input", item(`,"input":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}`), null],
      [
        "huge numbers",
        item(`,"latency_ms":1e999,"cost_usd":-1e-999,"epoch":1e20`).replace('"steps":[1,2]', '"steps":[1e999,-1e999]'),
        /epoch/,
      ],
      ["NaN-like answer", item("").replace('"answer":2', '"answer":"NaN"'), null],
      ["id of every type", item("").replace('"id":"x"', '"id":{"a":[1]}'), /id/],
    ];
    for (const [name, text, want] of cases) {
      const r = new NativeReader("adv.jsonl");
      const started = Date.now();
      r.line(run, 1);
      const ev = r.line(text, 2);
      if (ev?.kind === "generation") JSON.stringify(generationRow(1, 1, 1, ev.item, ev.analysis, stepTraceOf(ev.analysis)));
      expect(Date.now() - started, name).toBeLessThan(BUDGET_MS);
      if (want) expect(r.errors.map((e) => `${e.field}: ${e.message}`).join("\n"), name).toMatch(want);
      else expect(r.errors, name).toEqual([]);
      for (const e of r.errors) expect(e.line, name).toBe(2);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, "type")).toBe(false);
  });
});
