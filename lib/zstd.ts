import { createRequire } from "node:module";

// Zstandard through zstd-napi (the reference C library, compiled when the package installs):
// one compression and one decompression context per thread, reused by every call. Node 20's
// node:zlib has no zstd, and a context made per call is most of the cost of a 2 kB record.

type ZstdBinding = typeof import("zstd-napi/binding");
// The package is CommonJS whose exports Node's ESM loader cannot list: required, not imported.
const zstd = createRequire(import.meta.url)("zstd-napi/binding") as ZstdBinding;

/** The first four bytes of every zstd frame (RFC 8878 §3.1.1). */
export const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd] as const;

let cctx: InstanceType<ZstdBinding["CCtx"]> | null = null;
let cctxLevel = 0;
let dctx: InstanceType<ZstdBinding["DCtx"]> | null = null;
let frame = Buffer.allocUnsafeSlow(0);

/**
 * `input` as one zstd frame (its content size in the header). A frame under 4 kB (most records)
 * is a slice of Node's shared 8 kB buffer pool rather than an ArrayBuffer of its own: a load
 * makes three records per generation, and allocating each apart cost ~2 µs and garbage
 * collection (docs/performance.md, "Load"). Records are written by the thread that made them,
 * never posted to another (structured clone would copy the whole pool chunk).
 */
export function zstdCompress(input: Uint8Array, level: number): Buffer {
  const frame = zstdCompressScratch(input, level);
  const own = Buffer.allocUnsafe(frame.length);
  frame.copy(own);
  return own;
}

/** `input` as one zstd frame, in this thread's scratch space: valid until the next call. */
export function zstdCompressScratch(input: Uint8Array, level: number): Buffer {
  if (!cctx || cctxLevel !== level) {
    cctx ??= new zstd.CCtx();
    cctx.setParameter(zstd.CParameter.compressionLevel, level);
    cctxLevel = level;
  }
  const bound = zstd.compressBound(input.length);
  if (frame.length < bound) frame = Buffer.allocUnsafeSlow(Math.max(bound, 1 << 16));
  return frame.subarray(0, cctx.compress2(frame, input));
}

/** The content size a frame's header states, or null when it states none. Throws on what is not a zstd frame. */
export function zstdContentSize(frames: Uint8Array): number | null {
  return zstd.getFrameContentSize(frames);
}

/**
 * The frames in `frames` (one or more, back to back) decompressed into `out`; returns the bytes
 * written. Never writes past `out`: frames that hold more throw.
 */
export function zstdDecompressInto(out: Uint8Array, frames: Uint8Array): number {
  dctx ??= new zstd.DCtx();
  return dctx.decompress(out, frames);
}
