import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

// PostgreSQL's fastest bulk path: COPY … FROM STDIN in CSV format, on the transaction's own
// client. CSV rather than COPY's text format: a quoted field holds newlines, tabs and
// backslashes as they are, so an output (~50 newlines) is written as it is instead of being
// escaped into a new string — that escaping and its garbage were ~4 s of the loader's thread per
// 100,000 generations (docs/performance.md, "Load"). Strings are always quoted (an unquoted empty
// field is NULL, and no quoted line can be read as the end marker `\.`), their quotes doubled.
// The rows are written as UTF-8 straight into buffers of about CHUNK_BYTES.

const CHUNK_BYTES = 1 << 18;
const COMMA = 44;
const LF = 10;
const QUOTE = 34;
const BACKSLASH = 92;
const X = 120;
const HEX = Buffer.from("0123456789abcdef", "latin1");

// Buffers of CHUNK_BYTES whose COPY has ended (the server has read every byte), used again: a
// new one per chunk was ~400 MB of external memory per 100,000 generations, and V8 answers
// external memory with full garbage collections (~3 s of the loader's thread).
const spare: Buffer[] = [];
const MAX_SPARE = 16;

/**
 * COPY CSV of row-major chunks of values (a row array is a chunk of one row), in buffers of
 * about CHUNK_BYTES; each buffer it writes into is added to `taken`, for copyValues to use
 * again once the server has read them.
 */
export function* copyCsvOfValues(chunks: unknown[][], width: number, taken: Buffer[] = []): Generator<Buffer> {
  const take = (bytes: number) => {
    const b = bytes <= CHUNK_BYTES ? (spare.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES)) : Buffer.allocUnsafe(bytes);
    taken.push(b);
    return b;
  };
  let buf = take(CHUNK_BYTES);
  let at = 0;
  /** Room for `bytes` more; a full buffer is handed on first. */
  const room = (bytes: number): Buffer | null => {
    if (at + bytes <= buf.length) return null;
    const full = at > 0 ? buf.subarray(0, at) : null;
    buf = take(bytes);
    at = 0;
    return full;
  };
  for (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i += width) {
      for (let c = 0; c < width; c++) {
        const v = chunk[i + c];
        const end = c === width - 1 ? LF : COMMA;
        if (v === null || v === undefined) {
          const full = room(1);
          if (full) yield full;
        } else if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") {
          const s = typeof v === "boolean" ? (v ? "t" : "f") : String(v);
          const full = room(s.length + 1);
          if (full) yield full;
          at += buf.write(s, at, "latin1");
        } else if (v instanceof Uint8Array) {
          // bytea's hex form
          const full = room(v.length * 2 + 3);
          if (full) yield full;
          buf[at++] = BACKSLASH;
          buf[at++] = X;
          for (let k = 0; k < v.length; k++) {
            buf[at++] = HEX[v[k] >>> 4];
            buf[at++] = HEX[v[k] & 15];
          }
        } else {
          const text = typeof v === "string" ? v : String(v);
          const s = text.includes('"') ? text.replaceAll('"', '""') : text;
          // three UTF-8 bytes per UTF-16 unit at most, the quotes and the separator
          const full = room(s.length * 3 + 3);
          if (full) yield full;
          buf[at++] = QUOTE;
          at += buf.write(s, at, "utf8");
          buf[at++] = QUOTE;
        }
        buf[at++] = end;
      }
    }
  }
  if (at > 0) yield buf.subarray(0, at);
}

export async function copyValues(client: pg.PoolClient | pg.Client, table: string, columns: string[], chunks: unknown[][]): Promise<void> {
  if (chunks.every((c) => c.length === 0)) return;
  const sql = `COPY "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) FROM STDIN WITH (FORMAT csv)`;
  const taken: Buffer[] = [];
  await pipeline(Readable.from(copyCsvOfValues(chunks, columns.length, taken)), client.query(copyFrom(sql)));
  // only after a COPY that ended: a failed one may leave buffers queued on the socket
  for (const b of taken) if (b.length === CHUNK_BYTES && spare.length < MAX_SPARE) spare.push(b);
}

export async function copyRows(client: pg.PoolClient | pg.Client, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  await copyValues(client, table, columns, rows);
}
