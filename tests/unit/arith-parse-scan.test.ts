// The procedural-arith parser reads lines in place and finds a step label and a line's last
// number by hand scans (lib/analysis/arith-parse.ts); the regexes they replaced are kept here
// as the reference, and random texts built from the characters that matter must read the same.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lastNumber, parseAnswers, parseClaims } from "../../lib/analysis/arith-parse";

const NUMBER = /(?<![A-Za-z0-9_.])(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?/g;
const LABEL = /^[ \t]*(?:S[ \t]*(\d{1,9})[ \t]*=|Step[ \t]+(\d{1,9})[ \t]*:)/i;
const FINAL = /^[ \t>#*_]*final[ \t]+answer[ \t*_]*:/i;

function referenceLastNumber(line: string): number | null {
  let last: RegExpExecArray | null = null;
  NUMBER.lastIndex = 0;
  for (let m = NUMBER.exec(line); m !== null; m = NUMBER.exec(line)) last = m;
  if (last === null) return null;
  let v = Number(last[0]);
  const i = last.index;
  const prev = i > 0 ? line[i - 1] : "";
  if (prev === "-" || prev === "\u2212") {
    let k = i - 2;
    while (k >= 0 && (line[k] === " " || line[k] === "\t")) k--;
    const before = k >= 0 ? line[k] : "";
    if (!(/[A-Za-z0-9_)\]]/.test(before) && k === i - 2)) v = -v;
  }
  return Number.isFinite(v) ? v : null;
}

function referenceLines(text: string): { line: string; start: number }[] {
  const out: { line: string; start: number }[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    let line = text.slice(start, end);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    out.push({ line, start });
    start = end + 1;
  }
  return out;
}

function referenceClaims(text: string) {
  return referenceLines(text).flatMap(({ line, start }) => {
    const m = LABEL.exec(line);
    if (!m) return [];
    return [{ step: Number(m[1] ?? m[2]), value: referenceLastNumber(line.slice(m[0].length)), span: [start, start + line.length] }];
  });
}

function referenceFinalSpans(text: string) {
  return referenceLines(text)
    .filter(({ line }) => FINAL.test(line))
    .map(({ line, start }) => [start, start + line.length]);
}

// The characters the scans decide on: digits, points, exponents, signs, letters and `_` that
// glue, spaces, tabs, line ends (with \r), brackets, a minus sign, and other letters.
const piece = fc.constantFrom(
  ..."0123456789",
  ".",
  "e",
  "E",
  "+",
  "-",
  "\u2212",
  "S",
  "s",
  "x",
  "_",
  " ",
  "\t",
  "\n",
  "\r\n",
  "\r",
  "(",
  ")",
  "]",
  "=",
  ":",
  "é",
  "Step ",
  "step\t",
  "STEP",
  "S12 = ",
  "s 3 =",
  "1234567890",
  "Final answer: ",
  "**final  Answer**: ",
  "1e+5",
  ".5",
);
const text = fc.array(piece, { maxLength: 80 }).map((xs) => xs.join(""));

describe("arith parser scans", () => {
  it("lastNumber reads what the regex reads", () => {
    fc.assert(
      fc.property(text, (line) => {
        expect(Object.is(lastNumber(line), referenceLastNumber(line))).toBe(true);
      }),
      { numRuns: 20_000, seed: 5 },
    );
  });

  it("claims and final-answer lines as the line-by-line reading found them", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(parseClaims(t)).toEqual(referenceClaims(t));
        const finals = parseAnswers(t)
          .filter((a) => a.kind === "final-answer")
          .map((a) => a.span);
        expect(finals).toEqual(referenceFinalSpans(t));
      }),
      { numRuns: 10_000, seed: 6 },
    );
  });

  it("reads a decimal of any length as Number does (digits, point, exponent)", () => {
    const decimal = fc
      .tuple(
        fc.stringMatching(/^[0-9]{1,20}$/),
        fc.option(fc.stringMatching(/^[0-9]{1,22}$/), { nil: undefined }),
        fc.option(fc.stringMatching(/^[eE][+-]?[0-9]{1,3}$/), { nil: undefined }),
      )
      .map(([whole, fraction, exponent]) => whole + (fraction === undefined ? "" : "." + fraction) + (exponent ?? ""));
    fc.assert(
      fc.property(decimal, (d) => {
        const want = Number(d);
        expect(Object.is(lastNumber(`S3 = ${d}`), Number.isFinite(want) ? want : null)).toBe(true);
        expect(Object.is(lastNumber(`= -${d}`), Number.isFinite(want) ? -want : null)).toBe(true);
      }),
      { numRuns: 20_000, seed: 7 },
    );
    for (const d of ["0.1", "0.30000000000000004", "123456789012345", "1234567890123456", "9007199254740993", "0.000000000000001", "5.849"])
      expect(lastNumber(`= ${d}`)).toBe(Number(d));
  });

  it("keeps the reference's cases", () => {
    for (const [line, want] of [
      ["1.2.3", 1.2],
      ["S4-3", 3],
      ["= -3", -3],
      ["x1e5 2e", 2],
      ["7.e3", 7],
      ["a.5 .5e-2", 0.005],
      ["", null],
    ] as const)
      expect(lastNumber(line)).toBe(want);
  });
});
