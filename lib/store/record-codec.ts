import { inflateRawSync } from "node:zlib";
import { ZSTD_MAGIC, zstdCompress, zstdCompressScratch, zstdContentSize, zstdDecompressInto } from "../zstd";

// The compressed records a store keeps (a generation's output on SQLite, its step trace, an
// item's content) are zstd frames (lib/zstd.ts). A load compresses three records per
// generation, and node:zlib builds a stream object and a fresh deflate state for each call
// (~9 µs before any byte is compressed), which made compression the loader's largest cost:
// zstd with a reused context takes ~0.4× raw deflate's time for the same bytes, and reads
// back in half its time; level 1 rather than 3: 16% less time for 3% more bytes
// (docs/decisions.md, "Records are zstd frames").
//
// Records written before (raw deflate) still read: a zstd frame starts with the bytes
// 28 B5 2F FD, which no raw deflate stream can start with (28 is a stored block whose length
// field would then be 2FB5, and its complement's first byte 4A, not FD), so the first four
// bytes say which codec wrote a record. Nothing rewrites the old ones.

const LEVEL = 1;

// Reused by every call on this thread: the text's UTF-8 bytes, the decompressed bytes. Grown
// when a record needs more, never shrunk.
let source = Buffer.allocUnsafeSlow(1 << 16);
let plain = Buffer.allocUnsafeSlow(1 << 16);

/** A record's text as one zstd frame (lib/zstd.ts: written by the thread that makes it, never posted to another). */
export function compressRecord(text: string): Buffer {
  return zstdCompress(utf8(text), LEVEL);
}

/** The same record in this thread's scratch space, valid until the next call (for a copy made elsewhere). */
export function compressRecordScratch(text: string): Buffer {
  return zstdCompressScratch(utf8(text), LEVEL);
}

function utf8(text: string): Buffer {
  // three bytes per UTF-16 unit at most
  if (source.length < text.length * 3) source = Buffer.allocUnsafeSlow(text.length * 3);
  return source.subarray(0, source.write(text, 0, "utf8"));
}

/** Whether a record is a zstd frame (else raw deflate, as records were written before). */
export function isZstdRecord(record: Uint8Array): boolean {
  return record.length >= 4 && ZSTD_MAGIC.every((b, i) => record[i] === b);
}

/** A record's text (either codec). Throws on a damaged record, or one that would grow past `maxBytes`. */
export function decompressRecordText(record: Uint8Array, maxBytes: number): string {
  if (!isZstdRecord(record)) {
    // inflate's output chunk sized to the record (text deflates 2–4×) rather than zlib's 16 kB
    const chunkSize = Math.min(Math.max(1024, record.length * 4), maxBytes);
    return inflateRawSync(record, { maxOutputLength: maxBytes, chunkSize }).toString("utf8");
  }
  const size = zstdContentSize(record);
  if (size === null) throw new Error("compressed record: no content size");
  if (size > maxBytes) throw new Error(`compressed record: ${size} bytes, more than ${maxBytes}`);
  if (plain.length < size) plain = Buffer.allocUnsafeSlow(size);
  const n = zstdDecompressInto(plain.subarray(0, size), record);
  if (n !== size) throw new Error("compressed record: damaged");
  return plain.toString("utf8", 0, n);
}
