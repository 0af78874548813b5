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

// A number not glued to a name (the 3 of `S3` is part of the name): sign handled separately.
// Scientific notation is accepted for step values (a model may write 1.2e+21 for a huge S_j).
// As a regex: /(?<![A-Za-z0-9_.])(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?/g, of which the line's
// last match counts. Scanned by hand: the regex's match arrays were a fifth of a load's
// allocation (docs/performance.md, "Load"); a unit property test holds the two equal.

const isDigit = (c: number) => c >= 48 && c <= 57;
/** [A-Za-z0-9_.] */
const gluesToNumber = (c: number) => isDigit(c) || ((c | 32) >= 97 && (c | 32) <= 122) || c === 95 || c === 46;

// The last match of lastNumberSpan, [start, end).
let spanStart = 0;
let spanEnd = 0;

/** A character a match can hold: digits, `.`, `e`/`E` and the exponent's sign. */
const inNumber = (c: number) => isDigit(c) || c === 46 || (c | 32) === 101 || c === 43 || c === 45;

/**
 * Finds the last number of line[from, n) (the regex above, matched left to right); false when
 * none. Read from the end: the line is cut before each character no match can hold, and the
 * pieces are matched left to right, last piece first — no match crosses such a character, so a
 * left-to-right scan of the whole line reaches each piece's start fresh and matches in it what
 * the piece's own scan does. The last number is usually in the last piece.
 */
function lastNumberSpan(line: string, from: number, n: number): boolean {
  for (let end = n; end > from;) {
    let start = end;
    while (start > from && inNumber(line.charCodeAt(start - 1))) start--;
    if (start < end && numberIn(line, from, start, end)) return true;
    end = start - 1;
  }
  return false;
}

/** The last match in line[start, end), where a match at `from` has no character before it; sets spanStart and spanEnd. */
function numberIn(line: string, from: number, start: number, n: number): boolean {
  let found = false;
  let i = start;
  while (i < n) {
    const c = line.charCodeAt(i);
    // most characters start no number: that test first, the one of the character before only then
    if (!isDigit(c) && c !== 46) {
      i++;
      continue;
    }
    let e = -1;
    if (i === from || !gluesToNumber(line.charCodeAt(i - 1))) {
      if (isDigit(c)) {
        e = i + 1;
        while (e < n && isDigit(line.charCodeAt(e))) e++;
        if (e + 1 < n && line.charCodeAt(e) === 46 && isDigit(line.charCodeAt(e + 1))) {
          e += 2;
          while (e < n && isDigit(line.charCodeAt(e))) e++;
        }
      } else if (c === 46 && i + 1 < n && isDigit(line.charCodeAt(i + 1))) {
        e = i + 2;
        while (e < n && isDigit(line.charCodeAt(e))) e++;
      }
    }
    if (e < 0) {
      i++;
      continue;
    }
    if (e < n && (line.charCodeAt(e) | 32) === 101 /* e */) {
      let x = e + 1;
      if (x < n && (line.charCodeAt(x) === 43 || line.charCodeAt(x) === 45)) x++;
      if (x < n && isDigit(line.charCodeAt(x))) {
        while (x < n && isDigit(line.charCodeAt(x))) x++;
        e = x;
      }
    }
    spanStart = i;
    spanEnd = e;
    found = true;
    i = e;
  }
  return found;
}

/** The last number on a line, with a leading minus when it is a sign rather than a subtraction. */
export function lastNumber(line: string): number | null {
  return lastNumberIn(line, 0, line.length);
}

/** lastNumber of text[from, to), read in place. */
function lastNumberIn(text: string, from: number, to: number): number | null {
  if (!lastNumberSpan(text, from, to)) return null;
  const i = spanStart;
  let v = decimalAt(text, i, spanEnd);
  const prev = i > from ? text[i - 1] : "";
  if (prev === "-" || prev === "\u2212") {
    // `5 - 3` and `S4-3` subtract; `= -3`, `(-3)` and a line-leading `-3` are negative numbers.
    let k = i - 2;
    while (k >= from && (text[k] === " " || text[k] === "\t")) k--;
    const before = k >= from ? text[k] : "";
    const binary = /[A-Za-z0-9_)\]]/.test(before) && k === i - 2;
    if (!binary) v = -v;
  }
  return Number.isFinite(v) ? v : null;
}

const POW10 = Array.from({ length: 16 }, (_, k) => Number(`1e${k}`)); // exact doubles

/**
 * Number(text.slice(start, end)) for the match there, without the slice: a decimal of at most
 * 15 digits is its digits as an integer divided by a power of ten, both exact doubles, so the
 * one rounding of the division is the correctly rounded value Number gives (Clinger's fast
 * path). Exponents and longer decimals go to Number. Slicing and converting each claimed value
 * took 15% of parseClaims (docs/performance.md, "Load", stop 44).
 */
function decimalAt(text: string, start: number, end: number): number {
  let mantissa = 0;
  let digits = 0;
  let fraction = -1;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) {
      mantissa = mantissa * 10 + c - 48;
      digits++;
      if (fraction >= 0) fraction++;
    } else if (c === 46 && fraction < 0) fraction = 0;
    else return Number(text.slice(start, end));
  }
  if (digits > 15) return Number(text.slice(start, end));
  return fraction > 0 ? mantissa / POW10[fraction] : mantissa;
}

/** Where the line after the one lineEnd last read starts. */
let nextLine = 0;
/** End of the line starting at `start`, without its \r\n or \n; sets nextLine. */
function lineEnd(text: string, start: number): number {
  let end = text.indexOf("\n", start);
  if (end === -1) end = text.length;
  nextLine = end + 1;
  return end > start && text.charCodeAt(end - 1) === 13 /* \r */ ? end - 1 : end;
}

export function parseClaims(text: string): Claim[] {
  const claims: Claim[] = [];
  for (let start = 0; start <= text.length; start = nextLine) {
    const stop = lineEnd(text, start);
    if (!labelAt(text, start, stop)) continue;
    claims.push({ step: labelStep, value: lastNumberIn(text, labelEnd, stop), span: [start, stop] });
  }
  return claims;
}

// Only a line-leading label assigns a step: `S12 =` or `Step 12:`, as the regex
// /^[ \t]*(?:S[ \t]*(\d{1,9})[ \t]*=|Step[ \t]+(\d{1,9})[ \t]*:)/i would read the line. Scanned
// by hand, in place, for the same reason as numbers (and the same property test).
let labelStep = 0;
let labelEnd = 0;

const isBlank = (c: number) => c === 32 || c === 9;

/** Whether text[start, stop) starts with a label; sets labelStep and labelEnd (just past it). */
function labelAt(text: string, start: number, stop: number): boolean {
  let i = start;
  while (i < stop && isBlank(text.charCodeAt(i))) i++;
  if (i >= stop || (text.charCodeAt(i) | 32) !== 115 /* s */) return false;
  // `S` [blanks] digits [blanks] `=`
  let k = i + 1;
  while (k < stop && isBlank(text.charCodeAt(k))) k++;
  if (stepNumberAt(text, k, stop, 61 /* = */)) return true;
  // `Step` blanks digits [blanks] `:`
  const tep =
    stop - i >= 5 &&
    (text.charCodeAt(i + 1) | 32) === 116 /* t */ &&
    (text.charCodeAt(i + 2) | 32) === 101 /* e */ &&
    (text.charCodeAt(i + 3) | 32) === 112; /* p */
  if (!tep || !isBlank(text.charCodeAt(i + 4))) return false;
  k = i + 5;
  while (k < stop && isBlank(text.charCodeAt(k))) k++;
  return stepNumberAt(text, k, stop, 58 /* : */);
}

/** 1–9 digits at k, then blanks and `mark`: sets labelStep and labelEnd. */
function stepNumberAt(text: string, k: number, stop: number, mark: number): boolean {
  let step = 0;
  let digits = 0;
  while (k < stop && isDigit(text.charCodeAt(k))) {
    step = step * 10 + text.charCodeAt(k) - 48;
    digits++;
    k++;
  }
  if (digits === 0 || digits > 9) return false;
  while (k < stop && isBlank(text.charCodeAt(k))) k++;
  if (k >= stop || text.charCodeAt(k) !== mark) return false;
  labelStep = step;
  labelEnd = k + 1;
  return true;
}

const FINAL = /[ \t>#*_]*final[ \t]+answer[ \t*_]*:/iy; // sticky, as LABEL
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
  for (let start = 0; start <= text.length; start = nextLine) {
    const stop = lineEnd(text, start);
    FINAL.lastIndex = start;
    const m = FINAL.exec(text);
    if (!m) continue;
    const span: Span = [start, stop];
    // `Final answer: <answer>5</answer>` is one answer, the inner markup.
    if (startsWithin(marked, span)) continue;
    const raw = stripDecoration(text.slice(start + m[0].length, stop)).trim();
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
