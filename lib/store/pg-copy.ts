import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

// PostgreSQL's fastest bulk path: COPY … FROM STDIN in text format, on the transaction's own
// client. Values are escaped per the COPY text rules (backslash, tab, newline, CR; \N is NULL).
function field(v: unknown): string {
  if (v === null || v === undefined) return "\\N";
  if (typeof v === "boolean") return v ? "t" : "f";
  const s = typeof v === "string" ? v : String(v);
  return /[\\\t\n\r]/.test(s) ? s.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r") : s;
}

/** Text-format COPY lines, a chunk of rows at a time so large batches stream. */
function* copyText(rows: unknown[][]): Generator<string> {
  const CHUNK = 256;
  for (let i = 0; i < rows.length; i += CHUNK) {
    let out = "";
    for (const row of rows.slice(i, i + CHUNK)) out += row.map(field).join("\t") + "\n";
    yield out;
  }
}

export async function copyRows(client: pg.PoolClient | pg.Client, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  if (rows.length === 0) return;
  const sql = `COPY "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) FROM STDIN`;
  const sink = client.query(copyFrom(sql));
  await pipeline(Readable.from(copyText(rows)), sink);
}
