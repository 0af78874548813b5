// A small ZIP reader over a file handle: the central directory is read from the end (ZIP64
// included), members are read and inflated one at a time on request, so a large archive is
// never held in memory. Methods: stored (0), deflate (8), zstd (93; Inspect ≥ 0.3.206).
import fs from "node:fs/promises";
import zlib from "node:zlib";
import { zstdDecompressInto } from "../zstd";

export interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

export class ZipError extends Error {}

/** Members bigger than this are refused (a sample file of Inspect is far smaller). */
export const MAX_MEMBER_BYTES = 1 << 30;

const u16 = (b: Buffer, o: number) => b.readUInt16LE(o);
const u32 = (b: Buffer, o: number) => b.readUInt32LE(o);
const u64 = (b: Buffer, o: number) => Number(b.readBigUInt64LE(o));

/** Members read one after another in the archive's order are read in windows of this size. */
const WINDOW_BYTES = 1 << 20;

export class ZipReader {
  // The bytes of the archive read last: a log's samples are read in the order they were
  // written, so one read of WINDOW_BYTES serves hundreds of them (one read per member made
  // the import thread wait on the file system a fifth of its time).
  private window: Buffer = Buffer.alloc(0);
  private windowAt = 0;
  /** where windows are read, reused: a fresh megabyte each time is paid again in first touches */
  private windowSpace: Buffer | null = null;
  /** where zstd members up to a window's size are decoded, reused (a buffer per member cost as much as decoding it) */
  private scratch: Buffer = Buffer.alloc(0);
  /** where the last read ended: a read starting just after it is the next member in order */
  private lastEnd = -1;

  private constructor(
    private fh: fs.FileHandle,
    readonly size: number,
    readonly entries: Map<string, ZipEntry>,
  ) {}

  static async open(path: string): Promise<ZipReader> {
    const fh = await fs.open(path, "r");
    try {
      const { size } = await fh.stat();
      return new ZipReader(fh, size, await readDirectory(fh, size));
    } catch (e) {
      await fh.close();
      throw e;
    }
  }

  async close() {
    await this.fh.close();
  }

  /**
   * The member's bytes, decompressed and checked against its size (and CRC when zlib has
   * crc32). Valid until the next read: they may lie in space the reader reuses.
   */
  async read(name: string): Promise<Buffer> {
    const e = this.entries.get(name);
    if (!e) throw new ZipError(`${name} is not in the archive`);
    if (e.size > MAX_MEMBER_BYTES || e.compressedSize > MAX_MEMBER_BYTES) throw new ZipError(`${name} is too large (${e.size} bytes)`);
    const lh = await this.bytes(e.localOffset, 30);
    if (u32(lh, 0) !== 0x04034b50) throw new ZipError(`${name}: bad local header`);
    const start = e.localOffset + 30 + u16(lh, 26) + u16(lh, 28);
    const data = await this.bytes(start, e.compressedSize);
    let out: Buffer;
    try {
      if (e.method === 0) out = data;
      else if (e.method === 8) out = zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, e.size) });
      else if (e.method === 93) out = zstd(data, this.space(e.size));
      else throw new ZipError(`${name}: unsupported compression method ${e.method}`);
    } catch (err) {
      if (err instanceof ZipError) throw err;
      throw new ZipError(`${name}: cannot decompress (${(err as Error).message})`);
    }
    if (out.length !== e.size) throw new ZipError(`${name}: ${out.length} bytes after decompression, the directory says ${e.size}`);
    const crc32 = (zlib as unknown as { crc32?: (b: Uint8Array) => number }).crc32;
    if (crc32 && crc32(out) >>> 0 !== e.crc >>> 0) throw new ZipError(`${name}: CRC mismatch (the archive is corrupt)`);
    return out;
  }

  /** Room for a member of `size` bytes: the reused scratch space, or for a member larger than a window a buffer of its own (not kept). */
  private space(size: number): Buffer {
    if (size > WINDOW_BYTES) return Buffer.allocUnsafe(size);
    if (this.scratch.length < size) this.scratch = Buffer.allocUnsafeSlow(Math.max(size, 1 << 16));
    return this.scratch.subarray(0, size);
  }

  /** `len` bytes at `pos`, from the window when it holds them; a read just past the last one moves the window on. */
  private async bytes(pos: number, len: number): Promise<Buffer> {
    const sequential = pos >= this.lastEnd && pos - this.lastEnd < 65536;
    this.lastEnd = pos + len;
    if (pos >= this.windowAt && pos + len <= this.windowAt + this.window.length)
      return this.window.subarray(pos - this.windowAt, pos - this.windowAt + len);
    // Reading on from the last member: read ahead. Anywhere else (members read out of order):
    // read exactly what is asked, so random order costs no more than before.
    if (!sequential || len >= WINDOW_BYTES) return readAt(this.fh, pos, len, this.size);
    this.windowSpace ??= Buffer.allocUnsafeSlow(WINDOW_BYTES);
    this.window = Buffer.alloc(0); // its space is about to be overwritten
    this.window = await readAt(this.fh, pos, Math.min(WINDOW_BYTES, this.size - pos), this.size, this.windowSpace);
    this.windowAt = pos;
    if (len > this.window.length) throw new ZipError("the archive is truncated (a member runs past its end)");
    return this.window.subarray(0, len);
  }
}

/**
 * A zstd member (one frame or several) decoded into `out`, of exactly the directory's size: a
 * frame that holds more is refused without writing past it (a corrupt or hostile archive), one
 * that holds less is caught by the caller's size check.
 */
function zstd(data: Buffer, out: Buffer): Buffer {
  return out.subarray(0, zstdDecompressInto(out, data));
}

/** `len` bytes at `pos`, read into `space` when given (at least `len` long), else into a buffer of their own. */
async function readAt(fh: fs.FileHandle, pos: number, len: number, size: number, space: Buffer | null = null): Promise<Buffer> {
  if (pos < 0 || len < 0 || pos + len > size) throw new ZipError("the archive is truncated (a member runs past its end)");
  const buf = space ? space.subarray(0, len) : Buffer.alloc(len);
  let got = 0;
  while (got < len) {
    const { bytesRead } = await fh.read(buf, got, len - got, pos + got);
    if (bytesRead === 0) throw new ZipError("the archive is truncated");
    got += bytesRead;
  }
  return buf;
}

async function readDirectory(fh: fs.FileHandle, size: number): Promise<Map<string, ZipEntry>> {
  const tailLen = Math.min(size, 65557);
  const tail = await readAt(fh, size - tailLen, tailLen, size);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (u32(tail, i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd === -1) throw new ZipError("not a complete ZIP archive (no end of central directory: truncated?)");
  let count = u16(tail, eocd + 10);
  let cdSize = u32(tail, eocd + 12);
  let cdOffset = u32(tail, eocd + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const loc = eocd - 20;
    if (loc < 0 || u32(tail, loc) !== 0x07064b50) throw new ZipError("ZIP64 archive without its locator");
    const z64 = await readAt(fh, u64(tail, loc + 8), 56, size);
    if (u32(z64, 0) !== 0x06064b50) throw new ZipError("bad ZIP64 end of central directory");
    count = u64(z64, 32);
    cdSize = u64(z64, 40);
    cdOffset = u64(z64, 48);
  }
  if (cdSize > 256 * 1024 * 1024) throw new ZipError("the central directory is implausibly large");
  const cd = await readAt(fh, cdOffset, cdSize, size);
  const entries = new Map<string, ZipEntry>();
  let p = 0;
  for (let n = 0; n < count; n++) {
    if (p + 46 > cd.length || u32(cd, p) !== 0x02014b50) throw new ZipError("bad central directory entry");
    const nameLen = u16(cd, p + 28);
    const extraLen = u16(cd, p + 30);
    const commentLen = u16(cd, p + 32);
    if (p + 46 + nameLen + extraLen > cd.length) throw new ZipError("bad central directory entry");
    const name = cd.toString("utf8", p + 46, p + 46 + nameLen);
    let compressedSize = u32(cd, p + 20);
    let usize = u32(cd, p + 24);
    let localOffset = u32(cd, p + 42);
    // ZIP64 extra field: the 64-bit values of exactly the fields that hold 0xFFFFFFFF, in order.
    let x = p + 46 + nameLen;
    const xEnd = x + extraLen;
    while (x + 4 <= xEnd) {
      const id = u16(cd, x);
      const len = u16(cd, x + 2);
      if (id === 0x0001) {
        let q = x + 4;
        if (usize === 0xffffffff && q + 8 <= x + 4 + len) {
          usize = u64(cd, q);
          q += 8;
        }
        if (compressedSize === 0xffffffff && q + 8 <= x + 4 + len) {
          compressedSize = u64(cd, q);
          q += 8;
        }
        if (localOffset === 0xffffffff && q + 8 <= x + 4 + len) localOffset = u64(cd, q);
      }
      x += 4 + len;
    }
    entries.set(name, { name, method: u16(cd, p + 10), crc: u32(cd, p + 16), compressedSize, size: usize, localOffset });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}
