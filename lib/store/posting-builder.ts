import { BITSET_BYTES, BITSET_WORDS, BLOCK, encodeWords, type PostingRow } from "./search-postings";
import { scratchTrigrams } from "./search-terms";

// A builder holds, for the block being written, a bitset of its positions per trigram seen (a
// slot), found by the trigram's entry in a table of every trigram (2^21 of them, 4 MB; an
// open-addressing table of 32,768 entries was slower: docs/performance.md, "Load"). Past
// MAX_SLOTS trigrams (4 MB of bitsets) it writes what it holds early; the block's later rows
// then merge with those.
const MAX_SLOTS = 1 << 14;
const TRIGRAMS = 1 << 21;
/** Tables of every trigram no builder holds, all zero: `stepwise run` makes a builder per generation. */
const spareSlotTables: Uint16Array[] = [];
const MAX_SPARE_TABLES = 2;

/**
 * Builds one run's index rows from its generations' outputs, on the loader's thread as it writes
 * them: an output's trigrams are set in its block's bitsets as they are read, with no list of
 * them made. `add` returns the rows it finished (the next id is in another block, or the builder
 * was full); `take` the rest. Ids in ascending order (as a load writes them) make each block's
 * rows once; any other order only writes some rows in parts, which the store unites.
 */
export class PostingBuilder {
  private block = -1;
  /** each trigram's slot + 1 (0: none yet in this block); held from a block's first trigram until its rows are taken */
  private slotOf: Uint16Array | null = null;
  /** each slot's trigram */
  private codes = new Int32Array(MAX_SLOTS);
  /**
   * The bitsets, byte-major: byte i of slot s at i * slots + s, so that the trigrams of one
   * output (one byte of every bitset) are set within `slots` bytes, not all over the bitsets.
   * Room for 1,024 slots at first, doubled as needed up to MAX_SLOTS.
   */
  private slots = 1024;
  private bits = new Uint8Array(this.slots * BITSET_BYTES);
  private used = 0;
  /** blocks whose rows were returned in parts (the builder filled up within them): their rows may repeat a (block, trigram) */
  readonly splitBlocks = new Set<number>();

  constructor(readonly runId: number) {}

  /** Adds generation `id`, whose output is `text`; returns finished rows, or null. */
  add(id: number, text: string): PostingRow[] | null {
    // each distinct trigram once: an output of ~2,500 units has ~550 (docs/performance.md, "Load")
    const { codes, count } = scratchTrigrams(text);
    return this.addTrigrams(id, codes, count);
  }

  /** Adds generation `id`, whose output's distinct trigrams are `codes[0..count)`; returns finished rows, or null. */
  addTrigrams(id: number, codes: Int32Array, count = codes.length): PostingRow[] | null {
    const block = Math.floor(id / BLOCK);
    let done: PostingRow[] | null = null;
    if (block !== this.block) {
      done = this.take();
      this.block = block;
    }
    if (count === 0) return done;
    const position = id - block * BLOCK;
    const byte = position >>> 3;
    const bit = 1 << (position & 7);
    const slotOf = (this.slotOf ??= spareSlotTables.pop() ?? new Uint16Array(TRIGRAMS));
    let { bits } = this;
    let row = byte * this.slots;
    for (let k = 0; k < count; k++) {
      const code = codes[k];
      let slot = slotOf[code] - 1;
      if (slot < 0) {
        if (this.used === this.slots) {
          if (this.slots < MAX_SLOTS) this.grow();
          else {
            this.splitBlocks.add(this.block);
            done = done ? done.concat(this.rowsTaken()) : this.rowsTaken();
          }
          bits = this.bits;
          row = byte * this.slots;
        }
        slot = this.used++;
        slotOf[code] = slot + 1;
        this.codes[slot] = code;
      }
      bits[row + slot] |= bit;
    }
    return done;
  }

  /** Twice the room for slots, the bitsets laid out again for it. */
  private grow(): void {
    const slots = this.slots * 2;
    const bits = new Uint8Array(slots * BITSET_BYTES);
    for (let i = 0; i < BITSET_BYTES; i++) bits.set(this.bits.subarray(i * this.slots, i * this.slots + this.used), i * slots);
    this.slots = slots;
    this.bits = bits;
  }

  /** The rows of what was added since the last rows returned, in trigram order. */
  take(): PostingRow[] {
    const rows = this.rowsTaken();
    if (this.slotOf && spareSlotTables.length < MAX_SPARE_TABLES) spareSlotTables.push(this.slotOf);
    this.slotOf = null;
    return rows;
  }

  /** take(), the builder keeping its table (all zero again). */
  private rowsTaken(): PostingRow[] {
    const used = this.used;
    if (used === 0) return [];
    // each slot's bitset made contiguous, as words of four of its bytes (the first the lowest), then cleared
    const { bits, slots } = this;
    const words = new Uint32Array(used * BITSET_WORDS);
    for (let j = 0; j < BITSET_WORDS; j++) {
      const from = 4 * j * slots;
      for (let s = 0; s < used; s++)
        words[s * BITSET_WORDS + j] =
          bits[from + s] | (bits[from + slots + s] << 8) | (bits[from + 2 * slots + s] << 16) | (bits[from + 3 * slots + s] << 24);
      for (let k = 0; k < 4; k++) bits.fill(0, from + k * slots, from + k * slots + used);
    }
    const order = Array.from({ length: used }, (_, s) => s).sort((x, y) => this.codes[x] - this.codes[y]);
    const rows: PostingRow[] = order.map((s) => [this.runId, this.codes[s], this.block, encodeWords(words, s * BITSET_WORDS)]);
    for (let s = 0; s < used; s++) this.slotOf![this.codes[s]] = 0;
    this.used = 0;
    return rows;
  }
}
