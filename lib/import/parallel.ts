import { Worker } from "node:worker_threads";
import type { LineError, RunHeader } from "../analysis/types";
import { analysisThreadUrl } from "../store/analysis-thread-start";
import type { LoadProgress } from "../store/load-progress";
import type { ThreadEvent } from "../store/parallel-source";
import { WRITER_BATCH } from "../store/rows";
import type { ImportFormat } from "./formats";
import type { ImportOptions } from "./options";
import type { ImportReport, ImportSource, ImportStarter } from "./report";

// An import whose reading, parsing, analysis and row building run on a second thread
// (lib/import/thread.ts), so that the loader's thread spends its time inserting, as
// `stepwise ingest` does for native files (lib/store/parallel-source.ts). Events, errors and
// progress come back in batches, in the importer's order.

export const BATCH_EVENTS = 64;
// The loader takes events while its writer gathers WRITER_BATCH of them, then inserts them: with
// fewer than two of its batches in flight the import thread waited through every insert (4 × 64
// in flight: the Inspect import took 1.18× the wall time of ingesting its native export; 16 × 64,
// as many generations as ingest keeps in flight: 1.06×; docs/performance.md, "Importers").
export const IN_FLIGHT = Math.ceil((2 * WRITER_BATCH) / BATCH_EVENTS);

/** What the import thread starts with; its options come as its first message (attachThread). */
export interface ImportThreadData {
  kind: "import";
  file: string;
  path: string;
  size: number;
}

interface Batch {
  events: ThreadEvent[];
  errors: LineError[];
  /** the current header of every run of the batch, and of the run open when it began */
  headers: RunHeader[];
  bytes: number;
  lines: number;
}

export type ImportThreadMessage =
  | { kind: "failed"; report: ImportReport }
  | { kind: "start"; format: ImportFormat }
  | ({ kind: "batch" } & Batch)
  | ({ kind: "end"; notes: string[]; truncated: boolean } & Batch);

/** An import on a second thread started from `entry` (the server's comes from its own bundle). */
export const importThreadStarter =
  (entry: URL): ImportStarter =>
  (file, path, size, opts, progress) =>
    attachThread(spawnThread(entry, file, path, size), opts, progress);

export const startImportThread = importThreadStarter(analysisThreadUrl);

/**
 * The import thread of `path`, started now: the CLI starts the first file's before its options
 * are parsed and the store's and the loader's modules load, so that the thread's own start
 * (~0.25 s) is not waited for after them (docs/performance.md, "Importers"). `begin` gives the
 * thread its options as soon as they are parsed, and it starts reading while the store opens;
 * `starter` runs that thread's import when asked for that same file; `stop` ends the thread
 * whether or not it was used.
 */
export function importThreadAhead(file: string, path: string, size: number) {
  const spawned = spawnThread(analysisThreadUrl, file, path, size);
  let used = false;
  const starter: ImportStarter = (f, p, s, o, progress) => {
    if (used || f !== file || p !== path) throw new Error(`internal: the import thread of ${file} given ${f}`);
    used = true;
    return attachThread(spawned, o, progress);
  };
  return { begin: spawned.begin, starter, stop: () => (used ? Promise.resolve() : spawned.stop()) };
}

type SpawnedThread = ReturnType<typeof spawnThread>;

function spawnThread(entry: URL, file: string, path: string, size: number) {
  const worker = new Worker(entry, {
    workerData: { kind: "import", file, path, size } satisfies ImportThreadData,
    // 32 MB, not ingest's 8: a sample is parsed whole (JSON, attachments, events) and with 8 MB
    // scavenges took a large share of the thread's time (docs/performance.md, "Importers").
    resourceLimits: { maxYoungGenerationSizeMb: 32 },
  });
  const inbox: ImportThreadMessage[] = [];
  let wake: (() => void) | null = null;
  let failure: Error | null = null;
  worker.on("message", (m: ImportThreadMessage) => {
    inbox.push(m);
    wake?.();
  });
  worker.on("error", (e: Error & { code?: string }) => {
    const hint = e.code === "ERR_WORKER_OUT_OF_MEMORY" ? " (out of memory: retry with --threads 1)" : "";
    failure = new Error(`${file}: the import thread failed: ${e.message}${hint}; nothing was imported`);
    wake?.();
  });
  worker.on("exit", (code) => {
    failure ??= new Error(`the import thread stopped (exit code ${code})`);
    wake?.();
  });
  const next = async (): Promise<ImportThreadMessage> => {
    while (inbox.length === 0) {
      if (failure) throw failure;
      await new Promise<void>((r) => (wake = r));
      wake = null;
    }
    return inbox.shift()!;
  };
  const stop = async () => {
    worker.removeAllListeners("exit");
    await worker.terminate();
  };
  let begun: ImportOptions | null = null;
  /** The thread's first message: the import's options (once; the same options again do nothing). */
  const begin = (opts: ImportOptions) => {
    if (begun === opts) return;
    if (begun) throw new Error("internal: the import thread given its options twice");
    begun = opts;
    worker.postMessage(opts);
  };
  return { worker, next, stop, begin };
}

async function attachThread(
  { worker, next, stop, begin }: SpawnedThread,
  opts: ImportOptions,
  progress: LoadProgress,
): Promise<ImportSource | ImportReport> {
  begin(opts);
  let first: ImportThreadMessage;
  try {
    first = await next();
  } catch (e) {
    await stop();
    throw e;
  }
  if (first.kind === "failed") {
    await stop();
    return first.report;
  }
  if (first.kind !== "start") throw new Error(`the import thread sent ${first.kind} first`);
  const errors: LineError[] = [];
  let outcome = { notes: [] as string[], truncated: false };
  // The header objects the loader holds, by run key, brought up to date from each batch.
  const headers = new Map<string, RunHeader>();
  async function* events(): AsyncIterable<ThreadEvent> {
    try {
      for (;;) {
        const m = await next();
        if (m.kind !== "batch" && m.kind !== "end") throw new Error(`the import thread sent ${m.kind} mid-import`);
        progress.bytes = m.bytes;
        progress.lines = m.lines;
        errors.push(...m.errors);
        for (const ev of m.events) if (ev.kind === "run") headers.set(ev.header.key, ev.header);
        for (const h of m.headers) Object.assign(headers.get(h.key) ?? {}, h);
        if (m.kind === "batch") worker.postMessage("ack");
        yield* m.events;
        if (m.kind === "end") {
          outcome = { notes: m.notes, truncated: m.truncated };
          return;
        }
      }
    } finally {
      // Not waited for: the thread's isolate is torn down while the loader commits.
      stop().catch(() => {});
    }
  }
  const source: ImportSource = { format: first.format, events: events(), errors, outcome: () => outcome };
  return source;
}
