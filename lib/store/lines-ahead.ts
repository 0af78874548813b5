import type { AnalysisThread } from "./analysis-thread-start";
import type { LoadProgress, SourceOptions } from "./load";
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
    readonly store: Omit<SourceOptions, "maxErrors">,
  ) {
    const spare: ArrayBuffer[] = [];
    const batches = readLineBatches(input, BATCH_LINES, BATCH_BYTES, (n) => this.countBytes(n), spare)[Symbol.asyncIterator]();
    this.feed = { batches, spare, sent: 0, inputDone: false };
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
      const { bytes, offsets } = next.value;
      const first = this.lines + 1;
      this.lines += offsets.length - 1; // before the post: a transferred array reads as empty
      const { compressesOutputs: compressOutputs, loaderWaitsOnServer: repliesOnPort } = this.store;
      this.thread.post({ kind: "lines", first, bytes, offsets, compressOutputs, repliesOnPort }, [bytes.buffer, offsets.buffer]);
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
