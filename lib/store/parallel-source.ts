import type { Readable } from "node:stream";
import type { LineError } from "../analysis/types";
import { emptyFileError, type ReaderEvent } from "../native/reader";
import { AnalysisThread, analysisThreadUrl, type AnalysisThreadData } from "./analysis-thread-start";
import type { EventSource, SourceOptions } from "./load";
import type { LoadProgress } from "./load-progress";
import { IN_FLIGHT, lineFeed, postLines, type LineFeed, type LinesAhead, type StoreFlags } from "./lines-ahead";
import type { PreparedGeneration } from "./rows";
import type { RunAggregates } from "./run-aggregates";

// Native JSONL as an event source whose parsing, analysis and row building run on a second
// thread (lib/store/analysis-thread.ts), so that on a machine with two cores the loader's
// thread spends its time inserting. Lines go over in batches; at most IN_FLIGHT batches are
// outstanding, which bounds memory whatever the file's size. Events and errors come back in
// file order, exactly as the in-thread reader (nativeSource) yields them.

/** `lines`: a batch of lines as bytes (lib/store/read-lines.ts), the first of them line `first` of the file */
export type ThreadRequest =
  | {
      kind: "lines";
      first: number;
      bytes: Uint8Array<ArrayBuffer>;
      offsets: Uint32Array<ArrayBuffer>;
      /** the store keeps outputs compressed: compress them with the rest of the work done ahead */
      compressesOutputs: boolean;
      /**
       * the loader waits on a server (PostgreSQL): reply on the port given at the start, to be
       * taken when needed (lib/store/analysis-thread-start.ts), and leave the loader's part to it
       */
      loaderWaitsOnServer: boolean;
    }
  | { kind: "end" };
export type PreparedEvent = { kind: "prepared"; line: number; progressSteps: number; p: PreparedGeneration };
/**
 * A run's aggregates, computed by the analysis thread from the summaries it kept instead of
 * sending them (lib/store/native-thread.ts), after the run's last generation; `error`: what failed there
 */
export type AggregatesEvent = { kind: "aggregates"; line: number } & ({ aggregates: RunAggregates } | { error: string });
/**
 * The run's last generation came (`last`: the file's last run), sent before its aggregates are
 * computed: the loader writes its last rows and starts its signposts meanwhile
 */
export type RunEndEvent = { kind: "runEnd"; line: number; last: boolean };
export type ThreadEvent = Extract<ReaderEvent, { kind: "run" }> | PreparedEvent | RunEndEvent | AggregatesEvent;
export interface ThreadReply {
  events: ThreadEvent[];
  errors: LineError[];
  /** the last piece of its request's reply (a batch's events come back in several) */
  done: boolean;
  /** with the last piece: the request's line buffer, given back to be used again */
  spare?: ArrayBuffer;
}

/** The load's event source on a second thread started from `entry` (the server's comes from its own bundle). */
export function threadedNativeSource(entry: URL, { ahead, itemsInMemory }: Pick<AnalysisThreadData, "ahead" | "itemsInMemory"> = {}) {
  return (
    file: string,
    input: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string> | Readable,
    progress: LoadProgress,
    { maxErrors, ...opts }: SourceOptions,
  ): EventSource => parallelSource(() => new AnalysisThread(entry, { file, maxErrors, ahead, itemsInMemory }), file, input, progress, opts);
}

/**
 * The load's event source on a thread started ahead of it, for the file it was started for;
 * `ahead`: that file's first lines, already sent to it (`input` is then `ahead.input`).
 */
export function startedNativeSource(thread: AnalysisThread, ahead: LinesAhead | null = null) {
  return (
    file: string,
    input: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string> | Readable,
    progress: LoadProgress,
    opts: SourceOptions,
  ): EventSource => {
    if (file !== thread.data.file) throw new Error(`internal: the analysis thread of ${thread.data.file} given ${file}`);
    // The replies of one load come on one channel, or the loader could take them out of order.
    const same =
      ahead?.thread === thread &&
      ahead.input === input &&
      ahead.store.compressesOutputs === opts.compressesOutputs &&
      ahead.store.loaderWaitsOnServer === opts.loaderWaitsOnServer;
    if (ahead && !same) throw new Error("internal: lines sent ahead to another thread, from another input or for another store");
    return parallelSource(() => thread, file, input, progress, opts, ahead);
  };
}

export const parallelNativeSource = threadedNativeSource(analysisThreadUrl);

function parallelSource(
  start: () => AnalysisThread,
  file: string,
  input: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string> | Readable,
  progress: LoadProgress,
  store: StoreFlags,
  ahead: LinesAhead | null = null,
): EventSource {
  const errors: LineError[] = [];
  async function* events(): AsyncIterable<ThreadEvent> {
    const thread = start();
    let feed: LineFeed;
    try {
      feed = ahead ? await ahead.takeOver(progress) : lineFeed(input, (n) => (progress.bytes += n));
    } catch (e) {
      await thread.stop();
      throw e;
    }
    const { batches, spare } = feed;
    let { sent, inputDone } = feed;
    let received = 0;
    let endSent = false;
    try {
      for (;;) {
        while (!inputDone && sent - received < IN_FLIGHT) {
          const next = await batches.next();
          if (next.done) {
            inputDone = true;
            break;
          }
          const first = progress.lines + 1;
          progress.lines += next.value.offsets.length - 1; // before the post: a transferred array reads as empty
          postLines(thread, next.value, first, store);
          sent++;
        }
        // The end right after the last lines (the thread takes requests in order): the run's
        // metrics are computed while the loader still writes the batches in flight, not after.
        if (inputDone && !endSent) {
          thread.post({ kind: "end" });
          endSent = true;
          sent++;
        }
        if (endSent && received === sent) break;
        const reply = await thread.next();
        if (reply.done) received++;
        if (reply.spare) spare.push(reply.spare);
        // Each error before the events of later lines, as the in-thread reader reports them: the
        // loader counts a failing file's generations up to its first error.
        let e = 0;
        for (const ev of reply.events) {
          while (e < reply.errors.length && reply.errors[e].line <= ev.line) errors.push(reply.errors[e++]);
          yield ev;
          thread.tookEvent();
        }
        while (e < reply.errors.length) errors.push(reply.errors[e++]);
      }
      if (progress.lines === 0) errors.push(emptyFileError(file));
    } finally {
      // Not waited for: the thread's isolate is torn down while the loader commits.
      thread.stop().catch(() => {});
    }
  }
  return { events: events(), errors };
}
