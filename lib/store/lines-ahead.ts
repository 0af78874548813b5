import type { AnalysisThread } from "./analysis-thread-start";
import type { SourceOptions } from "./load";
import type { LoadProgress } from "./load-progress";
import { readLineBatches, type LineBatch } from "./read-lines";

// How a native file's lines go to its analysis thread (lib/store/parallel-source.ts), and the
// first of them sent as soon as `stepwise ingest` has started the thread: the thread is ready
// ~0.12 s after the command starts, the store ~0.18 s (the loader's modules load, the store
// opens), and the thread waited in between for lines; sent ahead, it starts on them at once
// (docs/performance.md, "Load"). This module stays light: it loads before the others.

export const BATCH_LINES = 256;
// A batch's bytes are transferred, not copied: at most BATCH_BYTES of lines whatever their
// length. Four batches of 256 in flight keep both threads busy: two of 128 saved ~25 MB at
// 1 GB but took ~25% more wall time (docs/performance.md, "Memory").
export const BATCH_BYTES = 1 << 20;
export const IN_FLIGHT = 4;

/** Where a load's line batches stand when its source takes them over. */
export interface LineFeed {
  batches: AsyncIterator<LineBatch>;
  /** buffers of batches the thread gave back, used again */
  spare: ArrayBuffer[];
  /** batches sent, none of them answered yet */
  sent: number;
  inputDone: boolean;
}

/** What a load tells its analysis thread about the store, with each batch of lines. */
export type StoreFlags = Omit<SourceOptions, "maxErrors">;

/** `input`'s line batches, none sent yet; `onBytes` counts the bytes read. */
export function lineFeed(input: Parameters<typeof readLineBatches>[0], onBytes: (n: number) => void): LineFeed {
  const spare: ArrayBuffer[] = [];
  const batches = readLineBatches(input, BATCH_LINES, BATCH_BYTES, onBytes, spare)[Symbol.asyncIterator]();
  return { batches, spare, sent: 0, inputDone: false };
}

/** Sends `thread` a batch of lines, the first of them line `first` of the file (its buffers move there). */
export function postLines(thread: AnalysisThread, { bytes, offsets }: LineBatch, first: number, store: StoreFlags): void {
  const { compressesOutputs, loaderWaitsOnServer } = store;
  thread.post({ kind: "lines", first, bytes, offsets, compressesOutputs, loaderWaitsOnServer }, [bytes.buffer, offsets.buffer]);
}

/** The first IN_FLIGHT batches of `input`'s lines, sent to `thread` before the load begins. */
export class LinesAhead {
  private readonly feed: LineFeed;
  private bytes = 0;
  private lines = 0;
  private countBytes = (n: number) => void (this.bytes += n);
  private readonly sending: Promise<void>;

  /** `store`: what the load will tell its source about the store (the command knows its URL before it opens it) */
  constructor(
    readonly thread: AnalysisThread,
    readonly input: Iterable<Uint8Array>,
    readonly store: StoreFlags,
  ) {
    this.feed = lineFeed(input, (n) => this.countBytes(n));
    this.sending = this.send();
    this.sending.catch(() => undefined); // a read error surfaces when the load takes over
  }

  private async send(): Promise<void> {
    const feed = this.feed;
    while (feed.sent < IN_FLIGHT) {
      const next = await feed.batches.next();
      if (next.done) {
        feed.inputDone = true;
        return;
      }
      const first = this.lines + 1;
      this.lines += next.value.offsets.length - 1; // before the post: a transferred array reads as empty
      postLines(this.thread, next.value, first, this.store);
      feed.sent++;
    }
  }

  /** Hands the batches to the load: what was sent counts in `progress`, and from now on so do the bytes read. */
  async takeOver(progress: LoadProgress): Promise<LineFeed> {
    await this.sending;
    progress.bytes += this.bytes;
    progress.lines += this.lines;
    this.countBytes = (n) => void (progress.bytes += n);
    return this.feed;
  }

  /** Closes the file, whether or not a load took the batches over. */
  async close(): Promise<void> {
    await this.sending.catch(() => undefined);
    await this.feed.batches.return?.();
  }
}
