// Where the parts of a JSON document of the shape {…, "<outer>": [{…, "<inner>": [e, e, …]}, …]}
// are in its bytes, found by walking its brackets and strings only (a string's end found byte
// by byte, then by indexOf past its first 64 bytes): measuring-execution's
// eval_step_results.json lists every instance in every turn's log, so an instance is whole only
// once the last log is read, and parsing the document before handing over any instance left the
// loader idle (docs/performance.md, "Importers"). With the layout each instance's turns are
// parsed when it is imported. Nothing here checks more than brackets, strings and separators:
// every part is parsed by JSON.parse when used.
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, isSpace, OPEN_BRACE, OPEN_BRACKET, QUOTE } from "./json-bytes";

export interface OuterElement {
  /** the element's text with its inner array replaced by [] */
  text: string;
  /** start and end (exclusive) of each inner element, in pairs */
  inner: number[];
}

export interface DocumentLayout {
  /** the document's text with each outer element replaced by 0 */
  skeleton: string;
  elements: OuterElement[];
}

class NotLaidOut extends Error {}

function fail(): never {
  throw new NotLaidOut();
}

/** Past the closing quote of the string whose opening quote is at `at`. */
function stringEnd(bytes: Buffer, at: number): number {
  // Most strings are short (names, ids): read byte by byte first, as a call of indexOf costs
  // about as much as reading ~100 bytes here.
  const near = Math.min(at + 64, bytes.length);
  for (let i = at + 1; i < near; i++) {
    const b = bytes[i];
    if (b === QUOTE) return i + 1;
    if (b === BACKSLASH) i++;
  }
  for (let i = near; ; i++) {
    i = bytes.indexOf(QUOTE, i);
    if (i < 0) fail();
    let slashes = 0;
    while (bytes[i - 1 - slashes] === BACKSLASH) slashes++;
    if ((slashes & 1) === 0) return i + 1;
  }
}

/** Past the value starting at `at` (its brackets balanced, its strings closed). */
function valueEnd(bytes: Buffer, at: number): number {
  const first = bytes[at];
  if (first === QUOTE) return stringEnd(bytes, at);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let i = at;
    while (i < bytes.length) {
      const b = bytes[i];
      if (isSpace(b) || b === COMMA || b === CLOSE_BRACE || b === CLOSE_BRACKET) break;
      i++;
    }
    return i > at ? i : fail();
  }
  let depth = 0;
  for (let i = at; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === QUOTE) i = stringEnd(bytes, i) - 1;
    else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
    else if ((b === CLOSE_BRACE || b === CLOSE_BRACKET) && --depth === 0) return i + 1;
  }
  return fail();
}

function skipSpace(bytes: Buffer, i: number): number {
  while (i < bytes.length && isSpace(bytes[i])) i++;
  return i;
}

/**
 * Calls `each(keyStart, keyEnd, valueStart)` for the object's members (the key without its
 * quotes), which returns past the value when it walked it, else -1; returns past the object.
 */
function members(bytes: Buffer, at: number, each: (k0: number, k1: number, v0: number) => number): number {
  if (bytes[at] !== OPEN_BRACE) fail();
  let i = skipSpace(bytes, at + 1);
  if (bytes[i] === CLOSE_BRACE) return i + 1;
  for (;;) {
    if (bytes[i] !== QUOTE) fail();
    const keyEnd = stringEnd(bytes, i);
    const colon = skipSpace(bytes, keyEnd);
    if (bytes[colon] !== COLON) fail();
    const v0 = skipSpace(bytes, colon + 1);
    const walked = each(i + 1, keyEnd - 1, v0);
    i = skipSpace(bytes, walked < 0 ? valueEnd(bytes, v0) : walked);
    if (bytes[i] === CLOSE_BRACE) return i + 1;
    if (bytes[i] !== COMMA) fail();
    i = skipSpace(bytes, i + 1);
  }
}

/** Calls `each(start)` for the array's elements, which returns past the element; returns past the array. */
function elements(bytes: Buffer, at: number, each: (start: number) => number): number {
  if (bytes[at] !== OPEN_BRACKET) fail();
  let i = skipSpace(bytes, at + 1);
  if (bytes[i] === CLOSE_BRACKET) return i + 1;
  for (;;) {
    const end = each(i);
    i = skipSpace(bytes, end);
    if (bytes[i] === CLOSE_BRACKET) return i + 1;
    if (bytes[i] !== COMMA) fail();
    i = skipSpace(bytes, i + 1);
  }
}

/** Whether the member name between `k0` and `k1` (without quotes) is `key`, escapes decoded as JSON.parse does. */
function isKey(bytes: Buffer, k0: number, k1: number, key: string): boolean {
  // Searched within the name only: indexOf from k0 read on to the end of the document when the
  // name had no backslash, once per member (~0.26 s of a 36 MB file: docs/performance.md, "Importers").
  if (bytes.subarray(k0, k1).includes(BACKSLASH)) {
    try {
      return JSON.parse(`"${bytes.toString("utf8", k0, k1)}"`) === key;
    } catch {
      return fail(); // not a JSON string: said by the parse of the whole
    }
  }
  return k1 - k0 === key.length && bytes.toString("latin1", k0, k1) === key;
}

/**
 * The layout of `bytes` (UTF-8, without a byte-order mark) when it is an object whose member
 * `outer` (once) is an array of objects that each hold the member `inner` (once) as an array;
 * null otherwise (the caller reads the document another way, which says what is wrong).
 */
export function documentLayout(bytes: Buffer, outer: string, inner: string): DocumentLayout | null {
  try {
    const skeleton: string[] = [];
    const found: OuterElement[] = [];
    let from = 0; // the skeleton's next piece starts here
    let seen = false;
    const start = skipSpace(bytes, 0);
    const end = members(bytes, start, (k0, k1, v0) => {
      if (!isKey(bytes, k0, k1, outer)) return -1;
      if (seen) fail();
      seen = true;
      return elements(bytes, v0, (e0) => {
        const element = outerElement(bytes, e0, inner);
        skeleton.push(bytes.toString("utf8", from, e0), "0");
        from = element.end;
        found.push({ text: element.text, inner: element.inner });
        return element.end;
      });
    });
    if (!seen || skipSpace(bytes, end) !== bytes.length) return null;
    skeleton.push(bytes.toString("utf8", from, bytes.length));
    return { skeleton: skeleton.join(""), elements: found };
  } catch (e) {
    if (e instanceof NotLaidOut) return null;
    throw e;
  }
}

function outerElement(bytes: Buffer, at: number, inner: string): OuterElement & { end: number } {
  const spans: number[] = [];
  let c0 = -1;
  let c1 = -1;
  const end = members(bytes, at, (k0, k1, v0) => {
    if (!isKey(bytes, k0, k1, inner)) return -1;
    if (c0 >= 0) fail();
    c0 = v0;
    c1 = elements(bytes, v0, (e0) => {
      const e1 = valueEnd(bytes, e0);
      spans.push(e0, e1);
      return e1;
    });
    return c1;
  });
  if (c0 < 0) fail();
  return { text: `${bytes.toString("utf8", at, c0)}[]${bytes.toString("utf8", c1, end)}`, inner: spans, end };
}
