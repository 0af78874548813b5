// `stepwise import` and POST /api/v1/import: detect the format, turn the file into run and
// generation events, and hand them to the native loader (one transaction per file, all or
// nothing, replace by run key). Importers read from a file on disk: the API spools its body
// to a temporary file first, because a ZIP must be read from its end.
import fs from "node:fs";
import type { Store } from "../db";
import type { ReaderEvent } from "../native/reader";
import { loadEvents, newProgress, type LoadProgress, type LoadReport } from "../store/load";
import { ImportContext } from "./context";
import { detectDocument, sniffFile } from "./detect";
import { FORMAT_LABEL, type ImportFormat, type ImportOptions } from "./options";
import { selfcondEvents } from "./selfcond";
import { evalStepEvents } from "./eval-steps";
import { experimentResultsEvents } from "./experiment-results";
import { lmEvalEvents } from "./lmeval";
import { metrEvents } from "./metr";
import { inspectEvents } from "./inspect";

export interface ImportReport extends LoadReport {
  format: ImportFormat | null;
  /** what was left out or decided on the way (`skipped 2 errored samples (ids 3, 7)`) */
  notes: string[];
  /** more errors were found than --max-errors lets through */
  truncated: boolean;
}

/** JSON documents are parsed whole; this bounds what that may cost. */
export const MAX_JSON_BYTES = 512 * 1024 * 1024;

export async function importFile(
  store: Store,
  file: string,
  path: string,
  opts: ImportOptions,
  onProgress?: (p: LoadProgress) => void,
): Promise<ImportReport> {
  let size: number;
  try {
    size = fs.statSync(path).size;
  } catch {
    return failed(file, null, "no such file");
  }
  const progress = newProgress(size);
  const ctx = new ImportContext(file, path, size, opts, progress);
  let format: ImportFormat | null = opts.format === "auto" ? null : opts.format;
  let doc: unknown = undefined;
  if (format === null) {
    const s = await sniffFile(path);
    if (s.kind === "zip") format = "inspect";
    else if (s.kind === "jsonl") format = s.format;
    else if (s.kind === "unknown") return failed(file, null, `cannot import: ${s.reason}`);
  }
  if (format === null || format === "selfcond" || format === "eval-steps" || format === "experiment-results") {
    if (size > MAX_JSON_BYTES) return failed(file, format, `a JSON document over ${MAX_JSON_BYTES >> 20} MB cannot be imported`);
    try {
      let text = fs.readFileSync(path, "utf8");
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      doc = JSON.parse(text);
    } catch (e) {
      return failed(file, format, `invalid JSON (${(e as Error).message})`);
    }
    progress.bytes = size;
    const d = detectDocument(doc);
    if (format === null) {
      if (d.format === null) return failed(file, null, `cannot import: ${d.reason}`);
      format = d.format;
    } else if (d.format !== format) {
      return failed(file, format, `this is not a ${FORMAT_LABEL[format]}${d.format ? ` (it looks like a ${FORMAT_LABEL[d.format]})` : ""}`);
    }
  }
  const events = guarded(ctx, eventsFor(format, ctx, doc));
  const report = await loadEvents(store, file, { events, errors: ctx.errors }, progress, onProgress);
  return { ...report, format, notes: report.ok ? ctx.notes : [], truncated: ctx.truncated };
}

function eventsFor(format: ImportFormat, ctx: ImportContext, doc: unknown): Iterable<ReaderEvent> | AsyncIterable<ReaderEvent> {
  const d = doc as Record<string, unknown>;
  switch (format) {
    case "selfcond":
      return selfcondEvents(ctx, d);
    case "eval-steps":
      return evalStepEvents(ctx, d);
    case "experiment-results":
      return experimentResultsEvents(ctx, d);
    case "lm-eval":
      return lmEvalEvents(ctx);
    case "metr":
      return metrEvents(ctx);
    case "inspect":
      return inspectEvents(ctx);
  }
}

/**
 * Any exception an importer did not turn into a field error still ends as an error of this
 * file (so the load rolls back and the user is told), never as a crash of the command.
 */
async function* guarded(ctx: ImportContext, events: Iterable<ReaderEvent> | AsyncIterable<ReaderEvent>): AsyncIterable<ReaderEvent> {
  let n = 0;
  try {
    for await (const ev of events) {
      n++;
      yield ev;
    }
  } catch (e) {
    ctx.error(0, "-", `cannot read the file: ${(e as Error).message}`);
  }
  if (n === 0 && !ctx.failed) ctx.error(0, "-", "the file holds no results to import");
}

function failed(file: string, format: ImportFormat | null, message: string): ImportReport {
  return {
    file,
    format,
    ok: false,
    runs: [],
    errors: [{ file, line: 0, field: "-", message }],
    lines: 0,
    generations: 0,
    steps: 0,
    notes: [],
    truncated: false,
  };
}
