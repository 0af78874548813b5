// Reads a dataset for `stepwise run`: native JSONL with one run line and items (their
// `output`, if any, is ignored). Lines are checked by the native schema, and each item by the
// analysis with an empty placeholder output (a multi-turn item needs T turn texts), so an item
// the analysis could not read is refused before any request is paid for.
import fs from "node:fs";
import { tryAnalyseItem } from "../analysis/analyse";
import type { LineError, NativeItem, RunHeader } from "../analysis/types";
import { isMultiTurn, replyCount } from "../generate/prompts";
import { parseItemLine, parseRunLine } from "../native/schema";
import { readLines } from "../store/read-lines";

export interface Dataset {
  name: string;
  header: RunHeader;
  items: NativeItem[];
}

export class DatasetError extends Error {
  constructor(readonly errors: LineError[]) {
    super(
      errors
        .slice(0, 10)
        .map((e) => `${e.file}:${e.line} ${e.field}: ${e.message}`)
        .join("\n") + (errors.length > 10 ? `\n… and ${errors.length - 10} more` : ""),
    );
    this.name = "DatasetError";
  }
}

/** What the run will send for an item, with an empty output of the right shape. */
export function placeholderOutput(header: RunHeader, item: NativeItem): string | string[] {
  return isMultiTurn(header, item) ? Array.from({ length: replyCount(header, item) }, () => "") : "";
}

export async function readDataset(name: string, input: AsyncIterable<Uint8Array | string> | string): Promise<Dataset> {
  const errors: LineError[] = [];
  const err = (line: number, field: string, message: string) => errors.length < 100 && errors.push({ file: name, line, field, message });
  let header: RunHeader | null = null;
  const items = new Map<string, NativeItem>();
  let n = 0;
  const source: AsyncIterable<Uint8Array | string> =
    typeof input === "string"
      ? (async function* () {
          yield input;
        })()
      : input;
  for await (const text of readLines(source)) {
    n++;
    if (text.trim() === "") continue;
    let obj: { type?: unknown };
    try {
      obj = JSON.parse(n === 1 ? text.replace(/^\uFEFF/, "") : text);
    } catch (e) {
      err(n, "-", `invalid JSON (${(e as Error).message})`);
      continue;
    }
    if (obj?.type === "run") {
      if (header) err(n, "type", "a dataset for `stepwise run` holds one run line");
      const r = parseRunLine(obj);
      r.errors.forEach((e) => err(n, e.field, e.message));
      if (r.header?.benchmark === "generic") err(n, "benchmark", "generic items carry no procedure to prompt a model with");
      header = r.header;
    } else if (obj?.type === "item") {
      if (!header) {
        err(n, "type", "item line before the run line");
        continue;
      }
      const r = parseItemLine(obj);
      r.errors.forEach((e) => err(n, e.field, e.message));
      if (!r.item || items.has(r.item.id)) continue; // another epoch of an item: the same prompt
      const item: NativeItem = { ...r.item, epoch: 0, output: null, usage: null, latency_ms: null, cost_usd: null };
      const a = tryAnalyseItem(header, { ...item, output: placeholderOutput(header, item) });
      if (!a.ok) a.errors.forEach((e) => err(n, e.field, e.message));
      else items.set(item.id, { ...item, length: a.analysis.length });
    } else {
      err(n, "type", 'type must be "run" or "item"');
    }
  }
  if (n === 0) err(0, "-", "the file is empty");
  else if (!header && errors.length === 0) err(n, "-", "the file holds no run line");
  else if (items.size === 0 && errors.length === 0) err(n, "-", "the dataset holds no items");
  if (errors.length || !header) throw new DatasetError(errors);
  return { name, header, items: [...items.values()] };
}

export async function readDatasetFile(file: string): Promise<Dataset> {
  if (!fs.existsSync(file)) throw new Error(`dataset ${file}: no such file`);
  return readDataset(file, fs.createReadStream(file));
}
