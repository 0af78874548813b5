// The first half of an import, wherever it runs (this thread, or the import thread of
// lib/import/parallel.ts): tell the format, parse a JSON document, and give the importer's
// events, guarded so that an unexpected exception ends as an error of the file.
import fs from "node:fs";
import type { ReaderEvent } from "../native/reader";
import type { LoadProgress } from "../store/load-progress";
import { ImportContext } from "./context";
import { detectDocument, sniffFile } from "./detect";
import { evalStepEvents, StepLogTurns } from "./eval-steps";
import { instanceByInstanceEvents, instanceReading, type InstanceReading } from "./eval-steps-layout";
import { experimentResultsEvents } from "./experiment-results";
import { failedImport, type ImportReport, type ImportSource } from "./report";
import { inspectEvents } from "./inspect";
import { fileChunks } from "../store/read-lines";
import { JsonDocumentError, parseSplitDocument } from "./json-document";
import { documentLayout } from "./json-layout";
import { lmEvalEvents } from "./lmeval";
import { metrEvents } from "./metr";
import { FORMAT_LABEL, type ImportFormat } from "./formats";
import type { ImportOptions } from "./options";
import { selfcondEvents } from "./selfcond";

/** JSON documents are parsed whole; this bounds what that may cost. */
export const MAX_JSON_BYTES = 512 * 1024 * 1024;

export async function startImport(
  file: string,
  path: string,
  size: number,
  opts: ImportOptions,
  progress: LoadProgress,
): Promise<ImportSource | ImportReport> {
  const ctx = new ImportContext(file, path, size, opts, progress);
  let format: ImportFormat | null = opts.format === "auto" ? null : opts.format;
  let doc: unknown = undefined;
  const stepLogs = new StepLogTurns();
  let reading: InstanceReading | null = null;
  if (format === null) {
    const s = await sniffFile(path);
    if (s.kind === "zip") format = "inspect";
    else if (s.kind === "jsonl") format = s.format;
    else if (s.kind === "unknown") return failedImport(file, null, `cannot import: ${s.reason}`);
  }
  if (format === null || format === "selfcond" || format === "eval-steps" || format === "experiment-results") {
    if (size > MAX_JSON_BYTES) return failedImport(file, format, `a JSON document over ${MAX_JSON_BYTES >> 20} MB cannot be imported`);
    try {
      // A regular eval_step_results.json is read instance by instance from its bytes, held
      // whole (lib/import/eval-steps-layout.ts); any other document is parsed as it is read,
      // and measuring-execution's step logs regrouped as they are parsed (the only format with
      // a top-level `step_logs`): that document is never whole in memory, as text or objects.
      const laidOut = format === null || format === "eval-steps" ? readByInstance(path) : null;
      if (laidOut) ({ doc, reading } = laidOut);
      else doc = parseSplitDocument(fileChunks(path, 4 << 20), "step_logs", (log, s) => stepLogs.add(log, s));
    } catch (e) {
      const why = (e as Error).message;
      return failedImport(file, format, e instanceof JsonDocumentError ? `invalid JSON (${why})` : `cannot read the file (${why})`);
    }
    progress.bytes = size;
    const d = detectDocument(doc);
    if (format === null) {
      if (d.format === null) return failedImport(file, null, `cannot import: ${d.reason}`);
      format = d.format;
    } else if (d.format !== format) {
      return failedImport(
        file,
        format,
        `this is not a ${FORMAT_LABEL[format]}${d.format ? ` (it looks like a ${FORMAT_LABEL[d.format]})` : ""}`,
      );
    }
  }
  return {
    format,
    events: guarded(
      ctx,
      reading && format === "eval-steps" ? instanceByInstanceEvents(ctx, reading) : eventsFor(format, ctx, doc, stepLogs),
    ),
    errors: ctx.errors,
    outcome: () => ({ notes: ctx.notes, truncated: ctx.truncated }),
  };
}

/** The document and how to read it instance by instance, when it is a regular eval_step_results.json; else null. */
function readByInstance(path: string): { doc: unknown; reading: InstanceReading } | null {
  const bytes = fs.readFileSync(path); // as the regrouping way reads (fileChunks): one read, not promises' 512 kB each
  if (bytes.indexOf('"step_logs"') === -1 || bytes[0] === 0xef) return null; // none, or a byte-order mark
  const layout = documentLayout(bytes, "step_logs", "instances");
  if (!layout) return null;
  let doc: unknown;
  try {
    doc = JSON.parse(layout.skeleton);
  } catch {
    return null; // said by the parse of the whole
  }
  if (detectDocument(doc).format !== "eval-steps") return null;
  const reading = instanceReading(bytes, layout);
  return reading && { doc, reading };
}

function eventsFor(
  format: ImportFormat,
  ctx: ImportContext,
  doc: unknown,
  stepLogs: StepLogTurns,
): Iterable<ReaderEvent> | AsyncIterable<ReaderEvent> {
  const d = doc as Record<string, unknown>;
  switch (format) {
    case "selfcond":
      return selfcondEvents(ctx, d);
    case "eval-steps":
      return evalStepEvents(ctx, stepLogs);
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
