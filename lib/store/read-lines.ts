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
  let head: Buffer | null = Buffer.alloc(0); // the stream's first bytes, until a BOM is ruled out
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
    let bytes = asBuffer(chunk);
    if (head) {
      bytes = head.length ? Buffer.concat([head, bytes]) : bytes;
      if (bytes.length < BOM.length && BOM.subarray(0, bytes.length).equals(bytes)) {
        head = Buffer.from(bytes);
        continue;
      }
      head = null;
      if (bytes.subarray(0, BOM.length).equals(BOM)) bytes = bytes.subarray(BOM.length);
    }
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
  if (head?.length) parts.push(head);
  if (parts.length) text += joined();
  if (text.length > 0) yield withoutCR(text);
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
