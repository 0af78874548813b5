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
// Scientific notation is accepted for step values (a model may write 1.2e+21 for a huge S_j).
const NUMBER = /(?<![A-Za-z0-9_.])(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?/g;

/** The last number on a line, with a leading minus when it is a sign rather than a subtraction. */
export function lastNumber(line: string): number | null {
  let last: RegExpExecArray | null = null;
  NUMBER.lastIndex = 0;
  for (let m = NUMBER.exec(line); m !== null; m = NUMBER.exec(line)) last = m;
  if (last === null) return null;
  let v = Number(last[0]);
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
/** For every `\boxed{` start, the index of the brace closing it (one stack pass: linear). */
function boxedCloses(text: string): Map<number, number> {
  const closes = new Map<number, number>();
  if (text.indexOf("\\boxed{") === -1) return closes;
  const stack: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 123 /* { */) stack.push(i);
    else if (c === 125 /* } */ && stack.length) {
      const open = stack.pop()!;
      if (open >= 6 && text.startsWith("\\boxed", open - 6)) closes.set(open - 6, i);
    }
  }
  return closes;
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
  for (let i = text.indexOf("<answer>"); i !== -1;) {
    const close = text.indexOf("</answer>", i + 8);
    if (close === -1) break;
    const raw = text.slice(i + 8, close).trim();
    out.push({ text: raw, value: parsePlainDecimal(raw), span: [i, close + 9], kind: "answer-tag" });
    i = text.indexOf("<answer>", close + 9);
  }
  const tags = out.length;
  for (const [i, end] of boxedCloses(text)) {
    // A \boxed inside an <answer> tag is part of that answer, not a second one.
    if (insideSorted(out, tags, i)) continue;
    const raw = text.slice(i + 7, end).trim();
    out.push({ text: raw, value: parsePlainDecimal(raw), span: [i, end + 1], kind: "boxed" });
  }
  const marked = out.slice().sort((x, y) => x.span[0] - y.span[0]);
  for (const { line, start } of linesOf(text)) {
    const m = FINAL.exec(line);
    if (!m) continue;
    const span: Span = [start, start + line.length];
    // `Final answer: <answer>5</answer>` is one answer, the inner markup.
    if (startsWithin(marked, span)) continue;
    const raw = stripDecoration(line.slice(m[0].length)).trim();
    out.push({ text: raw, value: parsePlainDecimal(raw), span, kind: "final-answer" });
  }
  return out.sort((a, b) => a.span[0] - b.span[0]);
}

/** Whether pos lies inside one of the first n answers (tags: sorted, non-overlapping). */
function insideSorted(list: ParsedAnswer[], n: number, pos: number): boolean {
  let lo = 0;
  let hi = n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [s, e] = list[mid].span;
    if (pos < s) hi = mid - 1;
    else if (pos >= e) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Whether some answer (sorted by start) starts inside span. */
function startsWithin(sorted: ParsedAnswer[], span: Span): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid].span[0] < span[0]) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo].span[0] < span[1];
}
