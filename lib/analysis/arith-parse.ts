// Reads claimed steps and final answers out of a procedural-arith generation (SPEC §2.1,
// examples/README.md). The text is untrusted and may be megabytes: every scan below is linear
// (line-anchored regexes without nested quantifiers, indexOf for tags).
import type { Span } from "./types";
import { parsePlainDecimal } from "./numbers";

export interface Claim {
  step: number;
  value: number | null; // null: the line names the step but holds no number
  span: Span; // the whole line
}

export interface ParsedAnswer {
  text: string; // trimmed content
  value: number | null; // null when not a plain decimal
  span: Span; // the whole markup
  kind: "answer-tag" | "boxed" | "final-answer";
}

// Only a line-leading label assigns a step: `S12 =` or `Step 12:`.
const LABEL = /^[ \t]*(?:S[ \t]*(\d{1,9})[ \t]*=|Step[ \t]+(\d{1,9})[ \t]*:)/i;
// A number not glued to a name (the 3 of `S3` is part of the name): sign handled separately.
const NUMBER = /(?<![A-Za-z0-9_.])(\d+(?:\.\d+)?|\.\d+)/g;

/** The last number on a line, with a leading minus when it is a sign rather than a subtraction. */
export function lastNumber(line: string): number | null {
  let last: RegExpExecArray | null = null;
  NUMBER.lastIndex = 0;
  for (let m = NUMBER.exec(line); m !== null; m = NUMBER.exec(line)) last = m;
  if (last === null) return null;
  let v = Number(last[1]);
  const i = last.index;
  const prev = i > 0 ? line[i - 1] : "";
  if (prev === "-" || prev === "\u2212") {
    // `5 - 3` and `S4-3` subtract; `= -3`, `(-3)` and a line-leading `-3` are negative numbers.
    let k = i - 2;
    while (k >= 0 && (line[k] === " " || line[k] === "\t")) k--;
    const before = k >= 0 ? line[k] : "";
    const binary = /[A-Za-z0-9_)\]]/.test(before) && k === i - 2;
    if (!binary) v = -v;
  }
  return Number.isFinite(v) ? v : null;
}

/** Splits into lines, keeping each line's start offset (handles \n and \r\n). */
export function* linesOf(text: string): Generator<{ line: string; start: number }> {
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    let line = text.slice(start, end);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    yield { line, start };
    start = end + 1;
  }
}

export function parseClaims(text: string): Claim[] {
  const claims: Claim[] = [];
  for (const { line, start } of linesOf(text)) {
    const m = LABEL.exec(line);
    if (!m) continue;
    const step = Number(m[1] ?? m[2]);
    claims.push({ step, value: lastNumber(line.slice(m[0].length)), span: [start, start + line.length] });
  }
  return claims;
}

const FINAL = /^[ \t>#*_]*final[ \t]+answer[ \t*_]*:/i;
const MAX_BOXED = 10_000;

/** Balanced-brace content of `\boxed{` starting at `open` (index of `{`); null when unclosed. */
function boxedEnd(text: string, open: number): number | null {
  let depth = 0;
  const stop = Math.min(text.length, open + MAX_BOXED);
  for (let i = open; i < stop; i++) {
    const c = text[i];
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return null;
}

// Markdown emphasis, math dollars and a closing full stop around a `Final answer:` value.
// Trimmed by hand: an end-anchored regex would rescan long runs of spaces quadratically.
function stripDecoration(s: string): string {
  const lead = " \t*$_`";
  const trail = " \t*$_`.";
  let a = 0;
  let b = s.length;
  while (a < b && lead.includes(s[a])) a++;
  while (b > a && trail.includes(s[b - 1])) b--;
  return s.slice(a, b);
}

export function parseAnswers(text: string): ParsedAnswer[] {
  const out: ParsedAnswer[] = [];
  // <answer>…</answer>: once a tag has no closing tag, no later one can close either.
  for (let i = text.indexOf("<answer>"); i !== -1; ) {
    const close = text.indexOf("</answer>", i + 8);
    if (close === -1) break;
    const raw = text.slice(i + 8, close).trim();
    out.push({ text: raw, value: parsePlainDecimal(raw), span: [i, close + 9], kind: "answer-tag" });
    i = text.indexOf("<answer>", close + 9);
  }
  for (let i = text.indexOf("\\boxed{"); i !== -1; ) {
    const end = boxedEnd(text, i + 6);
    if (end === null) {
      i = text.indexOf("\\boxed{", i + 7);
      continue;
    }
    const raw = text.slice(i + 7, end).trim();
    if (!insideAny(out, i)) out.push({ text: raw, value: parsePlainDecimal(raw), span: [i, end + 1], kind: "boxed" });
    i = text.indexOf("\\boxed{", end + 1);
  }
  for (const { line, start } of linesOf(text)) {
    const m = FINAL.exec(line);
    if (!m) continue;
    const span: Span = [start, start + line.length];
    // `Final answer: <answer>5</answer>` is one answer, the inner markup.
    if (out.some((a) => a.span[0] >= span[0] && a.span[0] < span[1])) continue;
    const raw = stripDecoration(line.slice(m[0].length)).trim();
    out.push({ text: raw, value: parsePlainDecimal(raw), span, kind: "final-answer" });
  }
  return out.sort((a, b) => a.span[0] - b.span[0]);
}

function insideAny(list: ParsedAnswer[], pos: number): boolean {
  return list.some((a) => pos >= a.span[0] && pos < a.span[1]);
}
