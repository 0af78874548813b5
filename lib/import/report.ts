// What an import gives back, and the shape of a started import (in this thread or another).
import type { EventSource, LoadReport } from "../store/load";
import type { LoadProgress } from "../store/load-progress";
import type { ImportFormat } from "./formats";
import type { ImportOptions } from "./options";

export interface ImportReport extends LoadReport {
  format: ImportFormat | null;
  /** what was left out or decided on the way (`skipped 2 errored samples (ids 3, 7)`) */
  notes: string[];
  /** more errors were found than --max-errors lets through */
  truncated: boolean;
}

/** A started import: its events for the loader, and what the importer says once they are consumed. */
export interface ImportSource extends EventSource {
  format: ImportFormat;
  outcome(): { notes: string[]; truncated: boolean };
}

/** The import as far as the loader: a source of events, or a report of why there is none. */
export type ImportStarter = (
  file: string,
  path: string,
  size: number,
  opts: ImportOptions,
  progress: LoadProgress,
) => Promise<ImportSource | ImportReport>;

export function failedImport(file: string, format: ImportFormat | null, message: string): ImportReport {
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
