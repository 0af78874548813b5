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
