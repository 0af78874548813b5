// `stepwise import` and POST /api/v1/import: detect the format, turn the file into run and
// generation events, and hand them to the native loader (one transaction per file, all or
// nothing, replace by run key). Importers read from a file on disk: the API spools its body
// to a temporary file first, because a ZIP must be read from its end.
import fs from "node:fs";
import type { RawStore } from "../db";
import { loadEvents } from "../store/load";
import { newProgress, type LoadProgress } from "../store/load-progress";
import type { ImportOptions } from "./options";
import { failedImport, type ImportReport, type ImportStarter } from "./report";
import { startImport } from "./start";

export type { ImportReport } from "./report";

/**
 * `start` is where the importer runs: in this thread by default (startImport); the CLI passes
 * startImportThread (lib/import/parallel.ts) to read, parse, analyse and build rows on a second
 * thread, as `stepwise ingest` does for native files.
 */
export async function importFile(
  store: RawStore,
  file: string,
  path: string,
  opts: ImportOptions,
  onProgress?: (p: LoadProgress) => void,
  start: ImportStarter = startImport,
): Promise<ImportReport> {
  let size: number;
  try {
    size = fs.statSync(path).size;
  } catch {
    return failedImport(file, null, "no such file");
  }
  const progress = newProgress(size);
  const source = await start(file, path, size, opts, progress);
  if (!("events" in source)) return source;
  const report = await loadEvents(store, file, source, progress, onProgress);
  const { notes, truncated } = source.outcome();
  return { ...report, format: source.format, notes: report.ok ? notes : [], truncated };
}
