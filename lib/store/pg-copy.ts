import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

// PostgreSQL's fastest bulk path: COPY … FROM STDIN in text format, on the transaction's own
// client. Values are escaped per the COPY text rules (backslash, tab, newline, CR; \N is NULL).
function field(v: unknown): string {
  if (v === null || v === undefined) return "\\N";
  if (typeof v === "boolean") return v ? "t" : "f";
  // bytea in hex form; the backslash itself escaped for COPY's text format
  if (v instanceof Uint8Array) return "\\\\x" + Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex");
  const s = typeof v === "string" ? v : String(v);
  return /[\\\t\n\r]/.test(s) ? s.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r") : s;
}

/** Text-format COPY lines from row-major chunks of values (a row array is a chunk of one row), 256 rows per string so large batches stream. */
function* copyTextOfValues(chunks: unknown[][], width: number): Generator<string> {
  let out = "";
  let rows = 0;
  for (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i += width) {
      for (let c = 0; c < width; c++) out += (c ? "\t" : "") + field(chunk[i + c]);
      out += "\n";
      if (++rows % 256 === 0) {
        yield out;
        out = "";
      }
    }
  }
  if (out) yield out;
}

export async function copyValues(client: pg.PoolClient | pg.Client, table: string, columns: string[], chunks: unknown[][]): Promise<void> {
  if (chunks.every((c) => c.length === 0)) return;
  const sql = `COPY "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) FROM STDIN`;
  await pipeline(Readable.from(copyTextOfValues(chunks, columns.length)), client.query(copyFrom(sql)));
}

export async function copyRows(client: pg.PoolClient | pg.Client, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  await copyValues(client, table, columns, rows);
}
