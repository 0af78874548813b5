import { itemContentKey } from "./item-content";
import { compressRecordScratch } from "./record-codec";
import { GEN_OUTPUT, type PreparedGeneration } from "./rows";
import { scratchTrigrams } from "./search-terms";

// Work on a generation that either of a load's two threads can do: the output's trigrams for
// the search index, the step trace's record, the item's content record (hashed and
// compressed), and where the store keeps outputs compressed (SQLite) the output's record. The
// loader's thread does it unless the analysis thread has done it ahead, which that thread does
// while it is ahead of the loader (the loader has more than AHEAD_EVENTS of its events still to
// write), except where the loader waits on a server (PostgreSQL): which thread has time to spare
// differs between machines, stores and parts of a file (docs/performance.md, "Load"). Done
// ahead, the results go over in one buffer per reply (transferred, not copied); the texts they
// replace do not go over at all.

/** What the analysis thread did ahead for a generation (views into its reply's buffer). */
export interface DoneAhead {
  /** the output's distinct trigrams (lib/store/search-terms.ts) */
  trigrams: Int32Array;
  /** the step trace's record (lib/store/step-trace.ts); null when there are no steps */
  stepTrace: Uint8Array | null;
  /** the item's content record (lib/store/item-content.ts); null for a later epoch of an item */
  content: { hash: Uint8Array; body: Uint8Array } | null;
  /** the output's record (lib/store/output-text.ts) where the store keeps it compressed, the row's text then ""; else null */
  output: Uint8Array | null;
}

/** Events the loader may have still to write before the analysis thread does its work ahead. */
export const AHEAD_EVENTS = 512;

/** Where in the reply's buffer each part lies, until the buffer is made: [offset, length] pairs. */
interface Placed {
  p: PreparedGeneration;
  trigrams: [number, number];
  stepTrace: [number, number] | null;
  hash: [number, number] | null;
  body: [number, number] | null;
  output: [number, number] | null;
}

/** The work done ahead for the generations of one reply, gathered in scratch space until sent. */
export class AheadBuffer {
  private scratch = Buffer.allocUnsafeSlow(1 << 16);
  private used = 0;
  private placed: Placed[] = [];

  /** Does `p`'s work and takes the texts it replaces off `p` (they need not go over); `compressOutput` where the store keeps outputs compressed. */
  doAhead(p: PreparedGeneration, compressOutput: boolean): void {
    const text = String(p.gen[GEN_OUTPUT]);
    const { codes, count } = scratchTrigrams(text);
    const trigrams = this.put(new Uint8Array(codes.buffer, codes.byteOffset, count * 4));
    let output: [number, number] | null = null;
    if (compressOutput && text !== "") {
      output = this.put(compressRecordScratch(text));
      p.gen[GEN_OUTPUT] = "";
    }
    const stepTrace = p.stepTrace === null ? null : this.put(compressRecordScratch(p.stepTrace));
    let contentHash: [number, number] | null = null;
    let body: [number, number] | null = null;
    if (p.content !== null) {
      contentHash = this.put(itemContentKey(p.content));
      body = this.put(compressRecordScratch(p.content));
    }
    p.stepTrace = null;
    p.content = null;
    this.placed.push({ p, trigrams, stepTrace, hash: contentHash, body, output });
  }

  /** The buffer of what was done since the last call, each generation's `ahead` set to views into it; null for none. */
  take(): ArrayBuffer | null {
    if (this.placed.length === 0) return null;
    const buffer = new ArrayBuffer(this.used);
    new Uint8Array(buffer).set(this.scratch.subarray(0, this.used));
    const view = ([at, n]: [number, number]) => new Uint8Array(buffer, at, n);
    for (const { p, trigrams, stepTrace, hash: h, body, output } of this.placed)
      p.ahead = {
        trigrams: new Int32Array(buffer, trigrams[0], trigrams[1] / 4),
        stepTrace: stepTrace && view(stepTrace),
        content: h && body ? { hash: view(h), body: view(body) } : null,
        output: output && view(output),
      };
    this.placed = [];
    this.used = 0;
    return buffer;
  }

  /** Copies `bytes` in at a multiple of four (the trigrams are read as 32-bit integers in place). */
  private put(bytes: Uint8Array): [number, number] {
    const at = (this.used + 3) & ~3;
    if (this.scratch.length < at + bytes.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(2 * this.scratch.length, at + bytes.length));
      this.scratch.copy(grown, 0, 0, this.used);
      this.scratch = grown;
    }
    this.scratch.set(bytes, at);
    this.used = at + bytes.length;
    return [at, bytes.length];
  }
}
