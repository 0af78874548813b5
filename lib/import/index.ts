// `stepwise import` and POST /api/v1/import: detect the format, turn the file into run and
// generation events, and hand them to the native loader (one transaction per file, all or
// nothing, replace by run key). Importers read from a file on disk: the API spools its body
// to a temporary file first, because a ZIP must be read from its end.
import fs from "node:fs";
import nodePath from "node:path";
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
    const stat = fs.statSync(path);
    if (stat.isDirectory()) return failedImport(file, null, directoryMessage(path));
    size = stat.size;
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

/**
 * What to say for a directory (harnesses write one per run, e.g. measuring-execution's with its
 * eval_step_results.json): the files in it that an import would read, so the fix is one copy away.
 */
function directoryMessage(dir: string): string {
  let names: string[] = [];
  try {
    names = fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && /\.(eval|jsonl?)$/i.test(e.name))
      .map((e) => e.name)
      .sort((a, b) => Number(KNOWN_NAMES.has(b)) - Number(KNOWN_NAMES.has(a)) || a.localeCompare(b));
  } catch {
    // unreadable: the message below without examples
  }
  const shown = names.slice(0, 3).map((n) => nodePath.join(dir, n));
  return names.length === 0
    ? "is a directory, not a file (it holds no .eval, .json or .jsonl file to import)"
    : `is a directory, not a file: import the files in it, e.g. ${shown.join(", ")}${names.length > 3 ? ` (${names.length} such files)` : ""}`;
}

const KNOWN_NAMES = new Set(["eval_step_results.json", "experiment_results.json"]);
