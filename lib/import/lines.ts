// JSONL records of a file on disk, streamed: one line in memory at a time, progress in bytes.
import fs from "node:fs";
import { readLines } from "../store/read-lines";
import type { ImportContext } from "./context";

export interface JsonRecord {
  line: number;
  rec: Record<string, unknown>;
}

/** Parsed records; blank lines skipped; bad lines become errors of the context. */
export async function* jsonRecords(ctx: ImportContext): AsyncIterable<JsonRecord> {
  const stream = fs.createReadStream(ctx.path, { highWaterMark: 1 << 20 });
  let line = 0;
  for await (let text of readLines(stream, (n) => (ctx.progress.bytes += n))) {
    line++;
    ctx.progress.lines = line;
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.trim() === "") continue;
    let rec: unknown;
    try {
      rec = JSON.parse(text);
    } catch (e) {
      ctx.error(line, "-", `invalid JSON (${(e as Error).message})`);
      continue;
    }
    if (typeof rec !== "object" || rec === null || Array.isArray(rec)) {
      ctx.error(line, "-", "a line must be a JSON object");
      continue;
    }
    yield { line, rec: rec as Record<string, unknown> };
  }
}
