import v8 from "node:v8";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import type { ThreadReply, ThreadRequest } from "./parallel-source";

// Starting a native load's analysis thread (lib/store/analysis-thread.ts), apart from the
// load's other modules: `stepwise ingest` starts it before it loads them, so that the thread's
// isolate starts while they load instead of after (docs/performance.md, "Load").

export interface AnalysisThreadData {
  file: string;
  maxErrors?: number;
  /** which generations get the loader's part done on the thread (lib/store/done-ahead.ts); default: by the loader's backlog. Tests pin it. */
  ahead?: "always" | "never";
  /** items of a run the reader keeps in memory before its table moves to disk (lib/native/item-numbering.ts); tests give a small one */
  itemsInMemory?: number;
}

/**
 * What the thread is started with: its data, the count of its events the loader has taken
 * (shared memory), and the port its replies go to.
 */
export type AnalysisThreadStart = AnalysisThreadData & { taken: Int32Array; replies: MessagePort };

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

/** Whether the CLI loads `bytes` (null: not known, stdin) on two threads, `threads` its `--threads` ("1" or "2") if given. */
export const onTwoThreads = (threads: string | undefined, bytes: number | null): boolean =>
  threads ? threads === "2" : bytes === null || bytes > PARALLEL_FROM_BYTES;

/** A started analysis thread and the replies it has sent, kept until its load reads them. */
export class AnalysisThread {
  private readonly worker: Worker;
  // Where the loader waits on a server (PostgreSQL), replies come on a port of their own and wait
  // there serialized until taken, the thread saying on its own channel (`null`) that one is
  // there: deserialized as they came, those that waited behind the loader outlived the young
  // generation and were promoted, then collected by full collections. Elsewhere they come on the
  // thread's channel and are deserialized as they come: held serialized (malloc'd, outside V8's
  // heap), SQLite's 800,000-item load peaked 50 MB higher (docs/decisions.md).
  private readonly replies: MessagePort;
  private readonly arrived: ThreadReply[] = [];
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  /** generations and runs the loader has taken from the replies, which the thread reads (lib/store/done-ahead.ts) */
  private readonly taken = new Int32Array(new SharedArrayBuffer(4));
  private takenCount = 0;

  constructor(
    entry: URL,
    readonly data: AnalysisThreadData,
  ) {
    // Read when an isolate is made: this thread's, not the one already running here.
    v8.setFlagsFromString(`--min-semi-space-size=${THREAD_SEMI_MB}`);
    const { port1, port2 } = new MessageChannel();
    this.replies = port1;
    this.worker = new Worker(entry, {
      workerData: { ...data, taken: this.taken, replies: port2 } satisfies AnalysisThreadStart,
      transferList: [port2],
      // The thread's live set is a few batches and the ids seen in the current run, which grows
      // with the run (hence a generous old-generation cap; figures: docs/decisions.md). A bounded
      // young generation (THREAD_YOUNG_MB) keeps the batches' garbage from piling up.
      resourceLimits: { maxOldGenerationSizeMb: THREAD_OLD_MB, maxYoungGenerationSizeMb: THREAD_YOUNG_MB },
    });
    this.worker.on("message", (r: ThreadReply | null) => {
      if (r) this.arrived.push(r);
      this.wake?.();
    });
    this.worker.on("error", (e: Error & { code?: string }) => {
      // e.g. ERR_WORKER_OUT_OF_MEMORY: say which part failed and what to do, not only Node's words
      const hint = e.code === "ERR_WORKER_OUT_OF_MEMORY" ? " (out of memory: retry with --threads 1)" : "";
      this.failure = new Error(`${data.file}: the analysis thread failed: ${e.message}${hint}; nothing was loaded`);
      this.wake?.();
    });
    this.worker.on("exit", (code) => {
      this.failure ??= new Error(`the analysis thread stopped (exit code ${code})`);
      this.wake?.();
    });
  }

  /** Sends a request; the buffers in `transfer` move to the thread (unusable here after). */
  post(request: ThreadRequest, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(request, transfer);
  }

  /** The next reply, in the order sent; throws once the thread has failed or stopped with none left. */
  async next(): Promise<ThreadReply> {
    for (;;) {
      if (this.arrived.length) return this.arrived.shift()!;
      const r = receiveMessageOnPort(this.replies);
      if (r) return r.message as ThreadReply;
      if (this.failure) throw this.failure;
      await new Promise<void>((r) => (this.wake = r));
      this.wake = null;
    }
  }

  /** Counts an event of the replies as taken by the loader. */
  tookEvent(): void {
    Atomics.store(this.taken, 0, ++this.takenCount);
  }

  /** Ends the thread (whether or not a load used it). */
  async stop(): Promise<void> {
    this.worker.removeAllListeners("exit");
    await this.worker.terminate();
    this.replies.close();
  }
}
