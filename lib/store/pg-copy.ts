import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

// PostgreSQL's fastest bulk path: COPY … FROM STDIN in text format, on the transaction's own
// client. Values are escaped per the COPY text rules (backslash, tab, newline, CR; \N is NULL).
// The rows are written as UTF-8 straight into buffers of about CHUNK_BYTES: built as strings
// (a 256-row rope per chunk, then Buffer.from) they cost a load's thread ~2 s of flattening and
// encoding and ~3.5 s of garbage collection per 100,000 generations (docs/performance.md, "Load").

const CHUNK_BYTES = 1 << 18;
const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPED: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };
const TAB = 9;
const LF = 10;

/** COPY text of row-major chunks of values (a row array is a chunk of one row), in buffers of about CHUNK_BYTES. */
export function* copyTextOfValues(chunks: unknown[][], width: number): Generator<Buffer> {
  let buf = Buffer.allocUnsafe(CHUNK_BYTES);
  let at = 0;
  /** Room for `bytes` more; a full buffer is handed on first. */
  const room = (bytes: number): Buffer | null => {
    if (at + bytes <= buf.length) return null;
    const full = at > 0 ? buf.subarray(0, at) : null;
    buf = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, bytes));
    at = 0;
    return full;
  };
  for (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i += width) {
      for (let c = 0; c < width; c++) {
        const text = fieldText(chunk[i + c]);
        // three UTF-8 bytes per UTF-16 unit at most, and the tab or newline after it
        const full = room(text.length * 3 + 1);
        if (full) yield full;
        at += buf.write(text, at, "utf8");
        buf[at++] = c === width - 1 ? LF : TAB;
      }
    }
  }
  if (at > 0) yield buf.subarray(0, at);
}

/** One value as COPY's text format writes it. */
function fieldText(v: unknown): string {
  if (v === null || v === undefined) return "\\N";
  if (typeof v === "boolean") return v ? "t" : "f";
  // bytea in hex form; the backslash itself escaped for COPY's text format
  if (v instanceof Uint8Array) return "\\\\x" + Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex");
  const s = typeof v === "string" ? v : String(v);
  return SPECIAL.test(s) ? s.replace(SPECIALS, (ch) => ESCAPED[ch]) : s;
}

export async function copyValues(client: pg.PoolClient | pg.Client, table: string, columns: string[], chunks: unknown[][]): Promise<void> {
  if (chunks.every((c) => c.length === 0)) return;
  const sql = `COPY "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) FROM STDIN`;
  await pipeline(Readable.from(copyTextOfValues(chunks, columns.length)), client.query(copyFrom(sql)));
}

export async function copyRows(client: pg.PoolClient | pg.Client, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  await copyValues(client, table, columns, rows);
}
