// Property-based fuzzing of every output parser in lib/analysis and of the whole analysis of
// an item per family (arith claims/answers, dict-sum turns and single-turn lists,
// self-conditioning, generic): adversarial text never throws, spans stay inside the text, and
// time stays bounded on 1 MB inputs built to trigger catastrophic backtracking or quadratic
// scans (long digit runs, nested <think>, unclosed tags, 1 MB lines).
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseAnswers, parseClaims, lastNumber } from "../../lib/analysis/arith-parse";
import { thinkRanges, turnAnswer } from "../../lib/analysis/dictsum-parse";
import { parseInteger, parsePlainDecimal, valuesMatch } from "../../lib/analysis/numbers";
import type { NativeItem } from "../../lib/analysis/types";
import { NativeReader } from "../../lib/native/reader";
import { EXAMPLES } from "../helpers/fixtures";

// Per input, in CPU time (the test file runs in its own process): linear scans of 1 MB take
// milliseconds, a quadratic one minutes; wall time on a machine shared by other builds took
// 18 s for a linear one.
const BUDGET_MS = 2_500;

/** First run line and first item of an example file, parsed. */
function example(file: string) {
  const lines = fs.readFileSync(path.join(EXAMPLES, file), "utf8").split("\n");
  return { run: lines[0], item: JSON.parse(lines[1]) as Record<string, unknown> };
}
const FAMILIES = {
  arith: example("arith-small.jsonl"),
  dict: example("dictsum-small.jsonl"),
  selfcond: example("selfcond-small.jsonl"),
  generic: example("generic-small.jsonl"),
};

/** Runs one item with `output` through the reader (validation + analysis); never throws. */
function analyse(family: keyof typeof FAMILIES, output: unknown, extra: Record<string, unknown> = {}) {
  const { run, item } = FAMILIES[family];
  const r = new NativeReader("fuzz.jsonl");
  r.line(run, 1);
  const ev = r.line(JSON.stringify({ ...item, output, ...extra }), 2);
  return { ev, errors: r.errors };
}

const slowest: [number, string][] = [];
function timed<T>(name: string, fn: () => T): T {
  const t = process.cpuUsage();
  const out = fn();
  const used = process.cpuUsage(t);
  const ms = (used.user + used.system) / 1000;
  slowest.push([ms, name]);
  expect(ms, name).toBeLessThan(BUDGET_MS);
  return out;
}

/** Every span lies inside the text (plain comparisons: 100k spans through expect() would be slow). */
function checkSpans(text: string, spans: ([number, number] | null)[]) {
  const bad = spans.find((s) => s !== null && !(s[0] >= 0 && s[1] >= s[0] && s[1] <= text.length));
  expect(bad, "span outside the text").toBeUndefined();
}

// Fragments that matter to the parsers, glued at random: most random strings never reach
// the interesting branches.
const TOKENS = [
  "S",
  "S1",
  "S12 = ",
  "S3 =",
  "Step 3:",
  "step 99:",
  "=",
  " ",
  "\t",
  "\n",
  "\r\n",
  "-",
  "\u2212",
  ".",
  "0",
  "7",
  "12.5",
  "99999999999",
  "e",
  "E+",
  "1e308",
  "<answer>",
  "</answer>",
  "<think>",
  "</think>",
  "\\boxed{",
  "{",
  "}",
  "Final answer:",
  "final  answer :",
  "**",
  "$",
  "`",
  ",",
  "x",
  "(",
  ")",
  "NaN",
  "Infinity",
  "S999999999 = ",
  "Step 0:",
];
const textArb = fc.oneof(
  fc.array(fc.constantFrom(...TOKENS), { maxLength: 300 }).map((t) => t.join("")),
  fc.string({ unit: "binary", maxLength: 400 }),
);

describe("parser fuzzing", () => {
  it("arith claims and answers: total, spans inside the text", () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const claims = parseClaims(text);
        const answers = parseAnswers(text);
        checkSpans(text, [...claims.map((c) => c.span), ...answers.map((a) => a.span)]);
        for (const c of claims) expect(c.value === null || Number.isFinite(c.value)).toBe(true);
        for (const a of answers) expect(a.value === null || Number.isFinite(a.value)).toBe(true);
        for (let i = 1; i < answers.length; i++) expect(answers[i].span[0]).toBeGreaterThanOrEqual(answers[i - 1].span[0]);
        const n = lastNumber(text);
        expect(n === null || Number.isFinite(n)).toBe(true);
      }),
      { numRuns: 1500, seed: 11 },
    );
  });

  it("dict-sum turns: thinking ranges ordered, answer outside them", () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const ranges = thinkRanges(text);
        checkSpans(text, ranges);
        for (let i = 1; i < ranges.length; i++) expect(ranges[i][0]).toBeGreaterThanOrEqual(ranges[i - 1][1]);
        const a = turnAnswer(text);
        checkSpans(text, [a.span]);
        if (a.span) for (const r of ranges) expect(a.span[0] >= r[1] || a.span[0] < r[0]).toBe(true);
        if (a.text !== null) {
          const v = parseInteger(a.text);
          expect(v === null || Number.isSafeInteger(v)).toBe(true);
        }
      }),
      { numRuns: 1500, seed: 12 },
    );
  });

  it("number parsing and generic value matching: total", () => {
    fc.assert(
      fc.property(textArb, fc.oneof(fc.double(), fc.string(), fc.constant(null)), (text, ref) => {
        const d = parsePlainDecimal(text);
        expect(d === null || Number.isFinite(d)).toBe(true);
        expect(typeof valuesMatch(text, ref)).toBe("boolean");
        expect(typeof valuesMatch(d, ref)).toBe("boolean");
      }),
      { numRuns: 1500, seed: 13 },
    );
  });

  it("whole-item analysis of every family with random outputs: an event or field errors", () => {
    const outputs = fc.oneof(textArb, fc.array(textArb, { maxLength: 40 }), fc.constant(null), fc.jsonValue({ maxDepth: 2 }));
    fc.assert(
      fc.property(fc.constantFrom(...(Object.keys(FAMILIES) as (keyof typeof FAMILIES)[])), outputs, (family, output) => {
        const { ev, errors } = analyse(family, output);
        if (!ev) expect(errors.length).toBeGreaterThan(0);
        else if (ev.kind === "generation") checkSpans(typeof output === "string" ? output : "", []);
      }),
      { numRuns: 800, seed: 14 },
    );
  });

  it("adversarial 1 MB inputs finish in bounded time", () => {
    const M = 1_000_000;
    const texts: [string, string][] = [
      ["digit run", "1".repeat(M)],
      ["digit run after a label", "S1 = " + "9".repeat(M)],
      ["dotted digits", "1.".repeat(M / 2)],
      ["exponent chain", "1e".repeat(M / 2)],
      ["minus run", "S1 =" + "-".repeat(M) + "1"],
      ["glued names", "S1 = " + "S1".repeat(M / 2)],
      ["spaces before a label", " ".repeat(M) + "S1 = 3"],
      ["label then spaces", "S" + " ".repeat(M) + "="],
      ["Final answer then spaces", "Final answer:" + " ".repeat(M) + "x"],
      ["decoration run", "Final answer: " + "*$_`".repeat(M / 4) + "5"],
      ["nested think", "<think>".repeat(M / 8) + "</think>".repeat(M / 8)],
      ["unclosed thinks", "<think>".repeat(M / 7)],
      ["closes only", "</think>".repeat(M / 8) + "<answer>5</answer>"],
      ["unclosed answers", "<answer>".repeat(M / 8)],
      ["answers inside think", "<think><answer>1</answer>".repeat(M / 25)],
      ["open answer then digits", "<answer>" + "1".repeat(M)],
      ["answer of 1 MB digits", "<answer>" + "1".repeat(M) + "</answer>"],
      ["boxed opens", "\\boxed{".repeat(M / 7)],
      ["braces", "{".repeat(M) + "}".repeat(M)],
      ["many lines", "\n".repeat(M)],
      ["many claims of one step", "S3 = 1\n".repeat(M / 7)],
      ["far-away steps", "Step 999999999: 5\n".repeat(M / 18)],
      ["many final answers", "Final answer: 1\n".repeat(M / 16)],
      ["single-turn list", "<answer>" + "1,".repeat(M / 2) + "</answer>"],
    ];
    for (const [name, text] of texts) {
      const spans = timed(name + " (parsers)", () => {
        const out = [
          ...parseClaims(text).map((c) => c.span),
          ...parseAnswers(text).map((a) => a.span),
          turnAnswer(text).span,
          ...thinkRanges(text),
        ];
        lastNumber(text);
        parsePlainDecimal(text);
        parseInteger(text);
        return out;
      });
      checkSpans(text, spans);
      for (const family of Object.keys(FAMILIES) as (keyof typeof FAMILIES)[]) {
        timed(`${name} (${family})`, () => analyse(family, text));
      }
      timed(`${name} (multi-turn, 10 copies)`, () => analyse("dict", Array(10).fill(text)));
    }
    console.log(
      "fuzz-parsers slowest:",
      slowest
        .sort((a, b) => b[0] - a[0])
        .slice(0, 4)
        .map(([ms, n]) => `${n} ${ms} ms`)
        .join("; "),
    );
  });

  it("generic items with huge or hostile step lists", () => {
    const big = Array.from({ length: 100_000 }, (_, i) => (i % 3 === 0 ? null : i % 3 === 1 ? "x".repeat(10) : i));
    const cases: [string, Partial<NativeItem> & Record<string, unknown>][] = [
      ["100k claimed steps", { steps: big }],
      ["100k reference steps", { reference: big.map((v) => v ?? 0), steps: [1] }],
      ["strings that look like numbers", { reference: ["1e3", "0x10", " 7 ", "NaN"], steps: [1000, 16, 7, Number.MAX_VALUE] }],
    ];
    for (const [name, extra] of cases) {
      const { ev, errors } = timed(name, () => analyse("generic", "out", extra));
      expect(ev !== null || errors.length > 0, name).toBe(true);
    }
  });
});
