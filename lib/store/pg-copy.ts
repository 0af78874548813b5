import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

// PostgreSQL's fastest bulk path: COPY … FROM STDIN on the transaction's own client, in COPY's
// binary format where every column is of a type written here (integer, bigint, double
// precision, boolean, text, bytea: all the tables a load writes), in CSV otherwise. Binary,
// because the server then reads each field as its length and its bytes: parsing CSV character
// by character was a fifth of the server's CPU in a load, and bytea went as hex, twice its
// bytes (docs/decisions.md, "PostgreSQL: outputs TOAST-compressed with lz4, `COPY` in
// binary"). CSV rather than COPY's text format: a quoted field holds newlines, tabs and
// backslashes as they are, so an output is written as it is instead of being escaped into a
// new string. Strings are always quoted (an unquoted empty field is NULL, and no quoted line
// can be read as the end marker `\.`), their quotes doubled. Either way the rows are written
// as UTF-8 straight into buffers of about CHUNK_BYTES.

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

/** Buffers of about CHUNK_BYTES written one after another; each taken is added to `taken`. */
class ChunkBuffers {
  buf: Buffer;
  at = 0;
  constructor(private readonly taken: Buffer[]) {
    this.buf = this.take(CHUNK_BYTES);
  }
  private take(bytes: number): Buffer {
    const b = bytes <= CHUNK_BYTES ? (spare.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES)) : Buffer.allocUnsafe(bytes);
    this.taken.push(b);
    return b;
  }
  /** Room for `bytes` more; a full buffer is handed back first, to be yielded. */
  room(bytes: number): Buffer | null {
    if (this.at + bytes <= this.buf.length) return null;
    const full = this.at > 0 ? this.buf.subarray(0, this.at) : null;
    this.buf = this.take(bytes);
    this.at = 0;
    return full;
  }
  /** What is written and not handed back yet, or null. */
  rest(): Buffer | null {
    return this.at > 0 ? this.buf.subarray(0, this.at) : null;
  }
}

/**
 * COPY CSV of row-major chunks of values (a row array is a chunk of one row), in buffers of
 * about CHUNK_BYTES; each buffer it writes into is added to `taken`, for copyValues to use
 * again once the server has read them.
 */
export function* copyCsvOfValues(chunks: unknown[][], width: number, taken: Buffer[] = []): Generator<Buffer> {
  const out = new ChunkBuffers(taken);
  for (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i += width) {
      for (let c = 0; c < width; c++) {
        const v = chunk[i + c];
        const end = c === width - 1 ? LF : COMMA;
        if (v === null || v === undefined) {
          const full = out.room(1);
          if (full) yield full;
        } else if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") {
          const s = typeof v === "boolean" ? (v ? "t" : "f") : String(v);
          const full = out.room(s.length + 1);
          if (full) yield full;
          out.at += out.buf.write(s, out.at, "latin1");
        } else if (v instanceof Uint8Array) {
          // bytea's hex form
          const full = out.room(v.length * 2 + 3);
          if (full) yield full;
          const buf = out.buf;
          let at = out.at;
          buf[at++] = BACKSLASH;
          buf[at++] = X;
          for (let k = 0; k < v.length; k++) {
            buf[at++] = HEX[v[k] >>> 4];
            buf[at++] = HEX[v[k] & 15];
          }
          out.at = at;
        } else {
          const text = typeof v === "string" ? v : String(v);
          const s = text.includes('"') ? text.replaceAll('"', '""') : text;
          // three UTF-8 bytes per UTF-16 unit at most, the quotes and the separator
          const full = out.room(s.length * 3 + 3);
          if (full) yield full;
          out.buf[out.at++] = QUOTE;
          out.at += out.buf.write(s, out.at, "utf8");
          out.buf[out.at++] = QUOTE;
        }
        out.buf[out.at++] = end;
      }
    }
  }
  const rest = out.rest();
  if (rest) yield rest;
}

/** The column types COPY's binary format is written for here, by PostgreSQL's name of each. */
export type BinaryType = "int4" | "int8" | "float8" | "bool" | "text" | "bytea";
const BINARY_TYPES: Record<string, BinaryType> = {
  integer: "int4",
  bigint: "int8",
  "double precision": "float8",
  boolean: "bool",
  text: "text",
  bytea: "bytea",
};
// "PGCOPY\n\377\r\n\0", no flags, no header extension
const BINARY_HEADER = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]);

const notOfType = (v: unknown, type: BinaryType, column: string) =>
  new Error(`COPY: column "${column}" (${type}) cannot hold ${typeof v} ${String(v).slice(0, 40)}`);

/**
 * Rows in COPY's binary format (PostgreSQL's documentation, "COPY", "Binary Format"; each
 * type's as its receive function reads it), encoded as they are added into buffers of about
 * CHUNK_BYTES, each added to `taken`: a load encodes a generation's row as it arrives, so that
 * the row is garbage at once instead of living until its batch's COPY (docs/performance.md,
 * "Load"). A value that does not fit its column's type (a fraction or a count past 2^31 − 1
 * for an integer) is an error here, as the server's would be in CSV.
 */
export class BinaryRows {
  private readonly out: ChunkBuffers;
  /** buffers filled, not handed out yet */
  private filled: Buffer[] = [];
  private ended = false;
  count = 0;
  constructor(
    readonly types: readonly BinaryType[],
    readonly columns: readonly string[],
    readonly taken: Buffer[] = [],
  ) {
    this.out = new ChunkBuffers(taken);
    this.out.at = BINARY_HEADER.copy(this.out.buf, 0);
  }

  private room(bytes: number): void {
    const full = this.out.room(bytes);
    if (full) this.filled.push(full);
  }

  /** Adds the row `values[at..at + columns)`. */
  add(values: readonly unknown[], at = 0): void {
    const { types, columns, out } = this;
    const width = types.length;
    this.room(2);
    out.at = out.buf.writeInt16BE(width, out.at);
    for (let c = 0; c < width; c++) {
      const v = values[at + c];
      const type = types[c];
      if (v === null || v === undefined) {
        this.room(4);
        out.at = out.buf.writeInt32BE(-1, out.at);
      } else if (type === "text") {
        const s = typeof v === "string" ? v : String(v);
        // three UTF-8 bytes per UTF-16 unit at most, after the length
        this.room(s.length * 3 + 4);
        const n = out.buf.write(s, out.at + 4, "utf8");
        out.buf.writeInt32BE(n, out.at);
        out.at += 4 + n;
      } else if (type === "bytea") {
        if (!(v instanceof Uint8Array)) throw notOfType(v, type, columns[c]);
        this.room(v.length + 4);
        out.at = out.buf.writeInt32BE(v.length, out.at);
        out.buf.set(v, out.at);
        out.at += v.length;
      } else {
        this.room(12);
        const buf = out.buf;
        if (type === "int4") {
          if (typeof v !== "number" || !Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff) throw notOfType(v, type, columns[c]);
          out.at = buf.writeInt32BE(v, buf.writeInt32BE(4, out.at));
        } else if (type === "float8") {
          if (typeof v !== "number") throw notOfType(v, type, columns[c]);
          out.at = buf.writeDoubleBE(v, buf.writeInt32BE(8, out.at));
        } else if (type === "bool") {
          if (v !== true && v !== false && v !== 0 && v !== 1) throw notOfType(v, type, columns[c]);
          out.at = buf.writeUInt8(v === true || v === 1 ? 1 : 0, buf.writeInt32BE(1, out.at));
        } else {
          const big = typeof v === "bigint" ? v : typeof v === "number" && Number.isSafeInteger(v) ? BigInt(v) : null;
          if (big === null) throw notOfType(v, type, columns[c]);
          out.at = buf.writeBigInt64BE(big, buf.writeInt32BE(8, out.at));
        }
      }
    }
    this.count++;
  }

  /** The buffers filled since the last call. */
  takeFilled(): Buffer[] {
    const f = this.filled;
    this.filled = [];
    return f;
  }

  /** Ends the rows: the buffers not handed out yet, the trailer's last. */
  end(): Buffer[] {
    if (this.ended) throw new Error("internal: binary COPY rows ended twice");
    this.ended = true;
    this.room(2);
    this.out.at = this.out.buf.writeInt16BE(-1, this.out.at);
    return [...this.takeFilled(), this.out.rest()!];
  }
}

/** COPY's binary format of row-major chunks of values (BinaryRows), buffer by buffer as they fill. */
export function* copyBinaryOfValues(
  chunks: unknown[][],
  types: readonly BinaryType[],
  columns: readonly string[],
  taken: Buffer[] = [],
): Generator<Buffer> {
  const rows = new BinaryRows(types, columns, taken);
  const width = types.length;
  for (const chunk of chunks)
    for (let i = 0; i < chunk.length; i += width) {
      rows.add(chunk, i);
      yield* rows.takeFilled();
    }
  yield* rows.end();
}

// Each connection's column types by table, read from the catalog once: a load COPYs into the
// same few tables on the same pooled clients.
const typeCache = new WeakMap<object, Map<string, Map<string, string>>>();

/** The binary types of `columns` of `table`, or null when one is of a type not written here. */
export async function binaryTypes(
  client: pg.PoolClient | pg.Client,
  table: string,
  columns: readonly string[],
): Promise<BinaryType[] | null> {
  let tables = typeCache.get(client);
  if (!tables) typeCache.set(client, (tables = new Map()));
  let known = tables.get(table);
  if (!known || columns.some((c) => !known!.has(c))) {
    const r = await client.query<{ name: string; type: string }>(
      `SELECT attname AS "name", format_type(atttypid, NULL) AS "type" FROM pg_attribute
        WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
      [`"${table}"`],
    );
    tables.set(table, (known = new Map(r.rows.map((x) => [x.name, x.type]))));
  }
  const types = columns.map((c) => BINARY_TYPES[known!.get(c) ?? ""]);
  return types.every((t) => t !== undefined) ? types : null;
}

export async function copyValues(client: pg.PoolClient | pg.Client, table: string, columns: string[], chunks: unknown[][]): Promise<void> {
  if (chunks.every((c) => c.length === 0)) return;
  const types = await binaryTypes(client, table, columns);
  const taken: Buffer[] = [];
  const buffers = types ? copyBinaryOfValues(chunks, types, columns, taken) : copyCsvOfValues(chunks, columns.length, taken);
  await copyBuffers(client, table, columns, types ? "binary" : "csv", buffers, taken);
}

/** COPYs rows encoded ahead (BinaryRows); they are ended here. */
export async function copyEncoded(client: pg.PoolClient | pg.Client, table: string, rows: BinaryRows): Promise<void> {
  const buffers = rows.end();
  if (rows.count > 0) await copyBuffers(client, table, rows.columns, "binary", buffers, rows.taken);
}

async function copyBuffers(
  client: pg.PoolClient | pg.Client,
  table: string,
  columns: readonly string[],
  format: "binary" | "csv",
  buffers: Iterable<Buffer>,
  taken: readonly Buffer[],
): Promise<void> {
  const sql = `COPY "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) FROM STDIN WITH (FORMAT ${format})`;
  await pipeline(Readable.from(buffers), client.query(copyFrom(sql)));
  // only after a COPY that ended: a failed one may leave buffers queued on the socket
  for (const b of taken) if (b.length === CHUNK_BYTES && spare.length < MAX_SPARE) spare.push(b);
}

export async function copyRows(client: pg.PoolClient | pg.Client, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  await copyValues(client, table, columns, rows);
}
