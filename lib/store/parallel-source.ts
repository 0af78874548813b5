import type { Readable } from "node:stream";
import v8 from "node:v8";
import { Worker } from "node:worker_threads";
import type { LineError } from "../analysis/types";
import { emptyFileError, type ReaderEvent } from "../native/reader";
import type { EventSource, LoadProgress } from "./load";
import { readLines } from "./read-lines";
import type { PreparedGeneration } from "./rows";

// Native JSONL as an event source whose parsing, analysis and row building run on a second
// thread (lib/store/analysis-thread.ts), so that on a machine with two cores the loader's
// thread spends its time inserting. Lines go over in batches; at most IN_FLIGHT batches are
// outstanding, which bounds memory whatever the file's size. Events and errors come back in
// file order, exactly as the in-thread reader (nativeSource) yields them.

export interface AnalysisThreadData {
  file: string;
  maxErrors?: number;
}

export type ThreadRequest = { kind: "lines"; first: number; lines: string[] } | { kind: "end" };
export type PreparedEvent = { kind: "prepared"; line: number; progressSteps: number; p: PreparedGeneration };
export type ThreadEvent = Extract<ReaderEvent, { kind: "run" }> | PreparedEvent;
export interface ThreadReply {
  events: ThreadEvent[];
  errors: LineError[];
  /** the last piece of its request's reply (a batch's events come back in several) */
  done: boolean;
}

const BATCH_LINES = 256;
// Each batch and its reply is one structured-clone buffer, allocated by one thread and freed by
// the other: at most BATCH_CHARS of lines whatever their length. Four batches of 256 in
// flight keep both threads busy: two of 128 saved ~25 MB at 1 GB but took ~25% more wall
// time (docs/performance.md, "Memory").
const BATCH_CHARS = 1 << 20;
const IN_FLIGHT = 4;
const THREAD_OLD_MB = 512;
// The thread's young generation starts at two semi-spaces of THREAD_SEMI_MB: V8 starts them at
// 1 MB, and under the CLI's cap on growth (lib/cli/heap.ts, process-wide) they stayed there, ~720
// scavenges per 10,000 generations; at 2 MB ~380 (at 4 MB ~170, but an 800,000-item run's peak
// went to 300 MB; figures: docs/performance.md, "Load"). THREAD_YOUNG_MB leaves room for them.
const THREAD_SEMI_MB = 2;
const THREAD_YOUNG_MB = 8;

/** The analysis thread's entry: a TypeScript loader beside lib/, or the CLI bundle's own (bin/bundle.mjs). */
export const analysisThreadUrl = new URL("./analysis-thread.mjs", import.meta.url);

/** Files larger than this load on two threads unless told otherwise: starting the thread costs ~0.3 s. */
export const PARALLEL_FROM_BYTES = 8_000_000;

/** The load's event source on a second thread started from `entry` (the server's comes from its own bundle). */
export function threadedNativeSource(entry: URL) {
  return (
    file: string,
    input: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string> | Readable,
    progress: LoadProgress,
    maxErrors?: number,
  ): EventSource => parallelSource(entry, file, input, progress, maxErrors);
}

export const parallelNativeSource = threadedNativeSource(analysisThreadUrl);

function parallelSource(
  entry: URL,
  file: string,
  input: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string> | Readable,
  progress: LoadProgress,
  maxErrors: number | undefined,
): EventSource {
  const errors: LineError[] = [];
  async function* events(): AsyncIterable<ThreadEvent> {
    // Read when an isolate is made: this thread's, not the one already running here.
    v8.setFlagsFromString(`--min-semi-space-size=${THREAD_SEMI_MB}`);
    const worker = new Worker(entry, {
      workerData: { file, maxErrors } satisfies AnalysisThreadData,
      // The thread's live set is a few batches and the ids seen in the current run, which grows
      // with the run (hence a generous old-generation cap; figures: docs/decisions.md). A bounded
      // young generation (THREAD_YOUNG_MB) keeps the batches' garbage from piling up.
      resourceLimits: { maxOldGenerationSizeMb: THREAD_OLD_MB, maxYoungGenerationSizeMb: THREAD_YOUNG_MB },
    });
    const replies: ThreadReply[] = [];
    let wake: (() => void) | null = null;
    let failure: Error | null = null;
    worker.on("message", (r: ThreadReply) => {
      replies.push(r);
      wake?.();
    });
    worker.on("error", (e: Error & { code?: string }) => {
      // e.g. ERR_WORKER_OUT_OF_MEMORY: say which part failed and what to do, not only Node's words
      const hint = e.code === "ERR_WORKER_OUT_OF_MEMORY" ? " (out of memory: retry with --threads 1)" : "";
      failure = new Error(`${file}: the analysis thread failed: ${e.message}${hint}; nothing was loaded`);
      wake?.();
    });
    worker.on("exit", (code) => {
      failure ??= new Error(`the analysis thread stopped (exit code ${code})`);
      wake?.();
    });
    const lines = readLines(input, (n) => (progress.bytes += n))[Symbol.asyncIterator]();
    let sent = 0;
    let received = 0;
    let inputDone = false;
    let endSent = false;
    try {
      for (;;) {
        while (!inputDone && sent - received < IN_FLIGHT) {
          const batch: string[] = [];
          const first = progress.lines + 1;
          let chars = 0;
          while (batch.length < BATCH_LINES && chars < BATCH_CHARS) {
            const next = await lines.next();
            if (next.done) {
              inputDone = true;
              break;
            }
            batch.push(next.value);
            chars += next.value.length;
            progress.lines++;
          }
          if (batch.length > 0) {
            worker.postMessage({ kind: "lines", first, lines: batch } satisfies ThreadRequest);
            sent++;
          }
        }
        if (inputDone && !endSent && sent === received) {
          worker.postMessage({ kind: "end" } satisfies ThreadRequest);
          endSent = true;
          sent++;
        }
        if (endSent && received === sent) break;
        while (replies.length === 0) {
          if (failure) throw failure;
          await new Promise<void>((r) => (wake = r));
          wake = null;
        }
        const reply = replies.shift()!;
        if (reply.done) received++;
        // Each error before the events of later lines, as the in-thread reader reports them: the
        // loader counts a failing file's generations up to its first error.
        let e = 0;
        for (const ev of reply.events) {
          while (e < reply.errors.length && reply.errors[e].line <= ev.line) errors.push(reply.errors[e++]);
          yield ev;
        }
        while (e < reply.errors.length) errors.push(reply.errors[e++]);
      }
      if (progress.lines === 0) errors.push(emptyFileError(file));
    } finally {
      worker.removeAllListeners("exit");
      await worker.terminate();
    }
  }
  return { events: events(), errors };
}
