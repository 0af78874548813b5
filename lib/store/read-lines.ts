import fs from "node:fs";
import { asBuffer } from "./bytes";

// Lines are cut from the bytes and each is decoded alone (a newline byte never occurs inside a
// UTF-8 sequence, so this decodes as a streaming TextDecoder would, U+FFFD for bad bytes and a
// leading BOM dropped). Decoding whole chunks with TextDecoder made, per MB read, a 4 MB
// temporary and a 2 MB two-byte string whose lines stayed two-byte to the other thread; those
// blocks are what fragmented a big load's heap (docs/performance.md, "Memory").

const CR = 13;
const LF = 10;

const withoutCR = (s: string): string => (s.charCodeAt(s.length - 1) === CR ? s.slice(0, -1) : s);
const BOM = Buffer.of(0xef, 0xbb, 0xbf);

/** Drops a byte stream's leading BOM, holding its first bytes until one is ruled out. */
class LeadingBom {
  private head: Buffer | null = Buffer.alloc(0);
  /** The chunk's bytes to split into lines; null while the stream's first bytes may still be a BOM's. */
  strip(chunk: Buffer): Buffer | null {
    if (!this.head) return chunk;
    const bytes = this.head.length ? Buffer.concat([this.head, chunk]) : chunk;
    if (bytes.length < BOM.length && BOM.subarray(0, bytes.length).equals(bytes)) {
      this.head = Buffer.from(bytes);
      return null;
    }
    this.head = null;
    return bytes.subarray(0, BOM.length).equals(BOM) ? bytes.subarray(BOM.length) : bytes;
  }
  /** At the stream's end: the bytes held (the start of a BOM the stream did not finish), or null. */
  rest(): Buffer | null {
    return this.head?.length ? this.head : null;
  }
}

/**
 * Splits a byte stream into lines without holding more than one chunk and one line. Chunks
 * may be views of one buffer reused between them (fileChunks): nothing is kept past a chunk.
 */
export async function* readLines(
  stream: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  onBytes?: (n: number) => void,
) {
  let parts: Buffer[] = []; // bytes of the line in progress, copied from earlier chunks
  let text = ""; // the line in progress, from a stream that gives strings
  const bom = new LeadingBom();
  const joined = (last?: Buffer): string => {
    const line = Buffer.concat(last ? [...parts, last] : parts).toString("utf8");
    parts = [];
    return line;
  };
  for await (const chunk of stream) {
    if (typeof chunk === "string") {
      onBytes?.(Buffer.byteLength(chunk));
      if (parts.length) text += joined();
      text += chunk;
      let nl: number;
      let start = 0;
      while ((nl = text.indexOf("\n", start)) !== -1) {
        yield withoutCR(text.slice(start, nl));
        start = nl + 1;
      }
      text = text.slice(start);
      continue;
    }
    onBytes?.(chunk.byteLength);
    const bytes = bom.strip(asBuffer(chunk));
    if (!bytes) continue;
    if (text) {
      parts.push(Buffer.from(text, "utf8"));
      text = "";
    }
    let start = 0;
    let nl: number;
    while ((nl = bytes.indexOf(LF, start)) !== -1) {
      yield withoutCR(parts.length ? joined(bytes.subarray(start, nl)) : bytes.toString("utf8", start, nl));
      start = nl + 1;
    }
    if (start < bytes.length) parts.push(Buffer.from(bytes.subarray(start)));
  }
  const rest = bom.rest();
  if (rest) parts.push(rest);
  if (parts.length) text += joined();
  if (text.length > 0) yield withoutCR(text);
}

/** Lines as bytes, for another thread to decode: line i is `bytes[offsets[i], offsets[i + 1])`, without its LF and trailing CR. */
export interface LineBatch {
  /** a view at the start of an ArrayBuffer of its own, which the batch may be transferred with */
  bytes: Uint8Array<ArrayBuffer>;
  offsets: Uint32Array<ArrayBuffer>;
}

/**
 * The lines readLines gives, undecoded, in batches of at most `maxLines` lines and (but for a
 * single longer line) `maxBytes` bytes: the loader's thread only finds line ends and copies
 * bytes, and the thread that parses a line decodes it just before (docs/performance.md, "Load").
 * Decoding a batch's bytes line by line with Buffer's UTF-8 decoder gives what readLines yields.
 */
export async function* readLineBatches(
  stream: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  maxLines: number,
  maxBytes: number,
  onBytes?: (n: number) => void,
  /** buffers of batches done with, used again: a fresh megabyte per batch costs its page faults (~4 ms) */
  spare: ArrayBuffer[] = [],
): AsyncGenerator<LineBatch> {
  const fresh = (): Buffer => {
    for (let b = spare.pop(); b; b = spare.pop()) if (b.byteLength >= maxBytes) return Buffer.from(b);
    return Buffer.allocUnsafeSlow(maxBytes);
  };
  let buf = fresh();
  let offsets = new Uint32Array(maxLines + 1);
  let count = 0;
  const take = (): LineBatch => {
    const batch = { bytes: new Uint8Array(buf.buffer as ArrayBuffer, 0, offsets[count]), offsets: offsets.slice(0, count + 1) };
    buf = fresh();
    offsets = new Uint32Array(maxLines + 1);
    count = 0;
    return batch;
  };
  /** Adds a line (its LF already cut); true when the batch is full. */
  const push = (from: Buffer, start: number, end: number): boolean => {
    if (end > start && from[end - 1] === CR) end--;
    const used = offsets[count];
    const length = end - start;
    if (used + length > buf.length) {
      // a line that does not fit: the buffer grows to hold it, and the batch ends with it
      const bigger = Buffer.allocUnsafeSlow(used + length);
      buf.copy(bigger, 0, 0, used);
      buf = bigger;
    }
    from.copy(buf, used, start, end);
    offsets[++count] = used + length;
    return count === maxLines || used + length >= maxBytes;
  };
  let parts: Buffer[] = []; // bytes of the line in progress, copied from earlier chunks
  const bom = new LeadingBom();
  for await (const chunk of stream) {
    let bytes: Buffer | null;
    if (typeof chunk === "string") {
      bytes = Buffer.from(chunk, "utf8");
      onBytes?.(bytes.length);
    } else {
      onBytes?.(chunk.byteLength);
      bytes = bom.strip(asBuffer(chunk));
      if (!bytes) continue;
    }
    let start = 0;
    let nl: number;
    while ((nl = bytes.indexOf(LF, start)) !== -1) {
      let full: boolean;
      if (parts.length) {
        parts.push(bytes.subarray(start, nl));
        const line = Buffer.concat(parts);
        parts = [];
        full = push(line, 0, line.length);
      } else full = push(bytes, start, nl);
      if (full) yield take();
      start = nl + 1;
    }
    if (start < bytes.length) parts.push(Buffer.from(bytes.subarray(start)));
  }
  const rest = bom.rest();
  if (rest) parts.push(rest);
  if (parts.length) {
    const line = Buffer.concat(parts);
    if (line.length > 0) push(line, 0, line.length);
  }
  if (count > 0) yield take();
}

/** A file's bytes in chunks that are views of one buffer, overwritten by the next chunk. */
export function* fileChunks(path: string, size = 1 << 20): Generator<Buffer> {
  const fd = fs.openSync(path, "r");
  try {
    const buf = Buffer.allocUnsafe(size);
    for (;;) {
      const n = fs.readSync(fd, buf, 0, size, null);
      if (n === 0) return;
      yield buf.subarray(0, n);
    }
  } finally {
    fs.closeSync(fd);
  }
}
