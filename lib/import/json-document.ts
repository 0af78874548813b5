// A JSON document read without holding its text whole: the bytes are scanned in chunks and
// the elements of one top-level array member (measuring-execution's `step_logs`, ~99% of its
// file) are parsed one at a time and handed to the caller, who keeps only what it needs. The
// rest of the document (the "skeleton", each such element replaced by 0) is parsed once at
// the end. A 36 MB eval_step_results.json otherwise costs a 36 MB buffer, a 36 MB string and
// its whole object graph alive through the import.
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, isSpace, OPEN_BRACE, OPEN_BRACKET, QUOTE } from "./json-bytes";

const isOpen = (b: number) => b === OPEN_BRACE || b === OPEN_BRACKET;
const isClose = (b: number) => b === CLOSE_BRACE || b === CLOSE_BRACKET;

/** The element `index` of the split member, or the skeleton, is not JSON. */
export class JsonDocumentError extends Error {}

/**
 * Parses a JSON document given in pieces (`chunks`), calling `onElement` with each element of
 * the top-level member `split` when that member is an array, in order. Returns the document
 * with that array's elements replaced by 0 (so it keeps its length). Throws JsonDocumentError
 * for any text that `JSON.parse` of the whole would refuse (elements first, then the skeleton).
 */
export function parseSplitDocument(chunks: Iterable<Buffer>, split: string, onElement: (value: unknown, index: number) => void): unknown {
  const skeleton: Buffer[] = [];
  let element: Buffer[] = []; // an element's earlier chunks (copies)
  let inString = false;
  let escaped = false;
  let depth = 0;
  let expectKey = false; // at depth 1, the next string is a member's name
  let keyStart = -1; // where the member name being read began, in this chunk
  let keyParts: Buffer[] = [];
  let lastKey: string | null = null;
  let inSplit = false; // inside the split member's array (depth 2 is its elements' level)
  let elemStart = -1; // where the current element began in this chunk, -1 between elements
  let index = 0;
  let splitSeen = false;
  /** A whole element, parsed: a placeholder in the skeleton where it was, and the caller gets it. */
  const handOver = (value: unknown) => {
    elemStart = -1;
    skeleton.push(ZERO);
    onElement(value, index++);
  };
  const endElement = (chunk: Buffer, end: number) => {
    let text: string;
    if (element.length === 0) text = chunk.toString("utf8", elemStart, end);
    else {
      element.push(chunk.subarray(elemStart, end));
      text = Buffer.concat(element).toString("utf8");
      element = [];
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new JsonDocumentError(`${split}[${index}]: ${(e as Error).message}`);
    }
    handOver(value);
  };
  /** The element at `start` as far as `end`, parsed and handed over; false when that is not a whole element. */
  const parsedElement = (chunk: Buffer, start: number, end: number): boolean => {
    let value: unknown;
    try {
      value = JSON.parse(chunk.toString("utf8", start, end));
    } catch {
      return false; // cut inside it (or it is not JSON): the scan finds its end and says which
    }
    handOver(value);
    return true;
  };
  for (const chunk of chunks) {
    let copyFrom = 0; // the part of this chunk not yet copied to the skeleton begins here
    for (let i = 0; i < chunk.length; i++) {
      if (inString) {
        // Strings are most of the bytes: jump to the next quote, escaped if an odd run of
        // backslashes (within this string's bytes of this chunk) comes before it.
        if (escaped) {
          escaped = false;
          continue;
        }
        let q = chunk.indexOf(QUOTE, i);
        for (;;) {
          if (q === -1) break;
          let k = q - 1;
          while (k >= i && chunk[k] === BACKSLASH) k--;
          if ((q - 1 - k) % 2 === 0) break;
          q = chunk.indexOf(QUOTE, q + 1);
        }
        if (q === -1) {
          let k = chunk.length - 1;
          while (k >= i && chunk[k] === BACKSLASH) k--;
          escaped = (chunk.length - 1 - k) % 2 === 1;
          i = chunk.length;
          break;
        }
        i = q;
        inString = false;
        if (keyStart !== -1) {
          keyParts.push(chunk.subarray(keyStart, i));
          lastKey = Buffer.concat(keyParts).toString("utf8");
          keyParts = [];
          keyStart = -1;
        }
        continue;
      }
      const b = chunk[i];
      if (isSpace(b)) continue;
      if (inSplit && depth === 2 && elemStart === -1 && b !== COMMA && !isClose(b)) {
        skeleton.push(copyOf(chunk, copyFrom, i));
        elemStart = i;
        const end = b === OPEN_BRACE ? guessedEnd(chunk, i) : -1;
        if (end !== -1 && parsedElement(chunk, i, end)) {
          copyFrom = end;
          i = end - 1; // on to the comma after the element
          continue;
        }
      }
      if (b === QUOTE) {
        inString = true;
        if (depth === 1 && expectKey) {
          keyStart = i + 1;
          expectKey = false;
        }
      } else if (isOpen(b)) {
        depth++;
        if (depth === 1) expectKey = b === 0x7b;
        else if (depth === 2 && b === 0x5b && lastKey === split) {
          if (splitSeen) throw new JsonDocumentError(`the member ${split} appears twice`);
          inSplit = splitSeen = true;
        }
      } else if (isClose(b)) {
        if (inSplit && depth === 2) {
          if (elemStart !== -1) {
            endElement(chunk, i);
            copyFrom = i;
          }
          inSplit = false;
        }
        depth--;
      } else if (b === COMMA) {
        if (depth === 1) expectKey = true;
        else if (inSplit && depth === 2 && elemStart !== -1) {
          endElement(chunk, i);
          copyFrom = i;
        }
      }
    }
    if (keyStart !== -1) {
      keyParts.push(copyOf(chunk, keyStart, chunk.length));
      keyStart = 0;
    }
    if (elemStart !== -1) {
      element.push(copyOf(chunk, elemStart, chunk.length));
      elemStart = 0;
    } else skeleton.push(copyOf(chunk, copyFrom, chunk.length));
  }
  const bytes = Buffer.concat(skeleton);
  skeleton.length = 0; // a document with no split member is all skeleton: its chunks go before the text is made
  let text = bytes.toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new JsonDocumentError((e as Error).message);
  }
}

const ZERO = Buffer.of(0x30);

/**
 * Where the object element starting at `start` probably ends (the comma after it), found
 * without scanning it: the next element of the same shape starts as this one does, up to its
 * first key's colon, and a comma and a `}` come before it. -1 when no such place is in the chunk.
 * A guess only: the caller parses up to it, and a text that parses there is the whole element
 * (a JSON object ends at its own closing brace); otherwise the scan takes over. Scanning every
 * byte of measuring-execution's step logs was a third of the time their parse took
 * (docs/performance.md, "Importers").
 */
function guessedEnd(chunk: Buffer, start: number): number {
  const colon = chunk.indexOf(COLON, start);
  if (colon === -1 || colon - start > 64) return -1;
  const next = chunk.indexOf(chunk.subarray(start, colon + 1), colon + 1);
  if (next === -1) return -1;
  let k = next - 1;
  while (k > start && isSpace(chunk[k])) k--;
  if (chunk[k] !== COMMA) return -1;
  let j = k - 1;
  while (j > start && isSpace(chunk[j])) j--;
  return chunk[j] === CLOSE_BRACE ? k : -1;
}

/** The caller's chunk may be reused for the next one: what outlives it is copied. */
const copyOf = (chunk: Buffer, from: number, to: number) => Buffer.from(chunk.subarray(from, to));
