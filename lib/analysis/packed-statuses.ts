import { STATUS_LETTER, STEP_STATUSES } from "./types";

// Each generation's step statuses, two bits a step (four statuses), for SummaryColumns: the
// largest of a run's columns, so it lives in fixed blocks of BLOCK statuses and growing it never
// copies it (figures: docs/decisions.md).

const BLOCK_BITS = 20;
const BLOCK = 1 << BLOCK_BITS; // statuses per block
// Four statuses a byte: two bits each, the index of its letter in STATUS_CODES.
const STATUS_CODES = STEP_STATUSES.map((s) => STATUS_LETTER[s].charCodeAt(0));
const CODE_OF = new Int8Array(128).fill(-1);
STATUS_CODES.forEach((c, k) => (CODE_OF[c] = k));
const packed = (statuses: number) => new Uint8Array(Math.ceil(statuses / 4));
// Locally correct (correct or propagated) by two-bit code, and how many of a byte's four are.
const LOCALLY_CORRECT = Uint8Array.from(STEP_STATUSES, (s) => (s === "correct" || s === "propagated" ? 1 : 0));
const CORRECT_IN_BYTE = Uint8Array.from(
  { length: 256 },
  (_, b) => LOCALLY_CORRECT[b & 3] + LOCALLY_CORRECT[(b >> 2) & 3] + LOCALLY_CORRECT[(b >> 4) & 3] + LOCALLY_CORRECT[b >> 6],
);

export class PackedStatuses {
  /**
   * Statuses of generation i: positions start[i] .. + length[i] of a space cut into blocks of
   * BLOCK; block k is blocks[k], whose first position is blockBase[k] (a trace longer than a
   * block gets one block of its own, listed under every index it spans).
   */
  private start: Float64Array;
  private length: Uint32Array;
  private blocks: Uint8Array[] = [];
  private blockBase: number[] = [];
  private end = 0;

  constructor(capacity: number) {
    this.start = new Float64Array(capacity);
    this.length = new Uint32Array(capacity);
  }

  /** Number of statuses of generation i. */
  count(i: number): number {
    return this.length[i];
  }

  /** Char code of step j's status letter (STATUS_LETTER), j from 0. */
  code(i: number, j: number): number {
    const at = this.start[i] + j;
    const k = Math.floor(at / BLOCK);
    const off = at - this.blockBase[k];
    return STATUS_CODES[(this.blocks[k][off >> 2] >> ((off & 3) << 1)) & 3];
  }

  /**
   * How many of generation i's first `limit` statuses are locally correct (correct or
   * propagated); with `perStep`, adds 1 to perStep[offset + j] for each such step j (indexes
   * past its end are skipped, as typed arrays skip them). One pass over the packed bytes: a
   * run's aggregates read every status this way, several times faster than code() per step.
   */
  locallyCorrect(i: number, limit: number, perStep: Float64Array | null = null, offset = 0): number {
    const n = Math.min(this.length[i], limit);
    if (n <= 0) return 0;
    const start = this.start[i];
    const k = Math.floor(start / BLOCK);
    const block = this.blocks[k];
    const from = start - this.blockBase[k];
    let total = 0;
    if (perStep) {
      for (let j = 0, at = from; j < n; j++, at++) {
        const ok = LOCALLY_CORRECT[(block[at >> 2] >> ((at & 3) << 1)) & 3];
        perStep[offset + j] += ok;
        total += ok;
      }
      return total;
    }
    let at = from;
    const to = from + n;
    for (; at < to && (at & 3) !== 0; at++) total += LOCALLY_CORRECT[(block[at >> 2] >> ((at & 3) << 1)) & 3];
    for (; at + 4 <= to; at += 4) total += CORRECT_IN_BYTE[block[at >> 2]];
    for (; at < to; at++) total += LOCALLY_CORRECT[(block[at >> 2] >> ((at & 3) << 1)) & 3];
    return total;
  }

  grow(capacity: number): void {
    this.start = resized(this.start, capacity);
    this.length = resized(this.length, capacity);
  }

  /** Generation i's statuses, one letter a step. */
  push(i: number, st: string): void {
    this.length[i] = st.length;
    if (st.length === 0) {
      this.start[i] = this.end;
      return;
    }
    let start = this.end;
    const k = Math.floor(start / BLOCK);
    if (st.length > BLOCK) {
      // a block of its own, from the next boundary, listed under each index it covers
      const first = start % BLOCK === 0 && !this.blocks[k] ? k : k + 1;
      start = first * BLOCK;
      const block = packed(st.length);
      for (let b = first; b * BLOCK < start + st.length; b++) {
        this.blocks[b] = block;
        this.blockBase[b] = start;
      }
    } else if ((start % BLOCK) + st.length > BLOCK || !this.blocks[k]) {
      // no room left in this block: the trace starts the next one
      const next = this.blocks[k] ? k + 1 : k;
      start = next * BLOCK;
      this.blocks[next] = packed(BLOCK);
      this.blockBase[next] = start;
    }
    const kk = Math.floor(start / BLOCK);
    const block = this.blocks[kk];
    const base = start - this.blockBase[kk];
    for (let j = 0; j < st.length; j++) {
      const c = st.charCodeAt(j);
      const code = c < 128 ? CODE_OF[c] : -1;
      if (code < 0) throw new Error(`internal: unknown step status letter ${JSON.stringify(st[j])}`);
      const at = base + j;
      block[at >> 2] |= code << ((at & 3) << 1);
    }
    this.start[i] = start;
    // after a block of its own, the next trace starts a fresh block
    this.end = st.length > BLOCK ? Math.ceil((start + st.length) / BLOCK) * BLOCK : start + st.length;
  }
}

type Typed = Int32Array | Uint8Array | Uint32Array | Float64Array;

/** A typed array copied into a new one of `size` (the rest zero). */
export function resized<T extends Typed>(a: T, size: number): T {
  const next = new (a.constructor as new (n: number) => T)(size);
  next.set(a as never);
  return next;
}
