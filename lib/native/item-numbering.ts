// A run's items numbered by first appearance, and its (item, epoch) pairs checked for repeats.
// The reader numbers them, so the writer on the other thread keeps no item ids of its own.
// The ids are kept as UTF-16 units in one growing array under an open-addressing table of
// numbers, not as a Map of strings: ~40 bytes an item instead of ~80 (docs/performance.md,
// "Memory"), which is what a run of a million items keeps until its last line.

const EMPTY = 0;

function grown<T extends Int32Array | Uint16Array | Float64Array>(a: T, size: number): T {
  const b = new (a.constructor as { new (n: number): T })(Math.max(size, a.length * 2));
  b.set(a);
  return b;
}

export class ItemNumbering {
  /** the ids' UTF-16 units, one after the other; item k's are units start[k] .. start[k + 1] */
  private units = new Uint16Array(16384);
  private start = new Int32Array(1025);
  private hashes = new Int32Array(1024);
  /** the epoch of each item's first generation (any integer a line may give: not 32 bits) */
  private firstEpoch = new Float64Array(1024);
  /** the later epochs of items that have several (most runs have none) */
  private laterEpochs = new Map<number, Set<number>>();
  /** item number + 1 per slot, EMPTY for none; a power of two, at most half full */
  private slots = new Int32Array(2048);
  count = 0;

  /** `hash`: only tests give another (a poor one, so that ids collide) */
  constructor(private readonly hash: (id: string) => number = hashOf) {}

  /**
   * The item's number for a generation of `epoch`, `first` when the run had no generation of
   * it before; null when the run already had this item at this epoch.
   */
  see(id: string, epoch: number): { index: number; first: boolean } | null {
    const hash = this.hash(id);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (;;) {
      const k = this.slots[slot] - 1;
      if (k < 0) break;
      if (this.hashes[k] === hash && this.idIs(k, id)) return this.again(k, epoch);
      slot = (slot + 1) & mask;
    }
    const index = this.add(id, hash, epoch);
    this.slots[slot] = index + 1;
    if (this.count * 2 > this.slots.length) this.rehash();
    return { index, first: true };
  }

  private again(k: number, epoch: number): { index: number; first: boolean } | null {
    if (this.firstEpoch[k] === epoch) return null;
    let later = this.laterEpochs.get(k);
    if (!later) this.laterEpochs.set(k, (later = new Set()));
    if (later.has(epoch)) return null;
    later.add(epoch);
    return { index: k, first: false };
  }

  private idIs(k: number, id: string): boolean {
    const from = this.start[k];
    if (this.start[k + 1] - from !== id.length) return false;
    for (let i = 0; i < id.length; i++) if (this.units[from + i] !== id.charCodeAt(i)) return false;
    return true;
  }

  private add(id: string, hash: number, epoch: number): number {
    const k = this.count++;
    if (k === this.hashes.length) {
      this.hashes = grown(this.hashes, 0);
      this.firstEpoch = grown(this.firstEpoch, 0);
      this.start = grown(this.start, this.hashes.length + 1);
    }
    const from = this.start[k];
    if (from + id.length > this.units.length) this.units = grown(this.units, from + id.length);
    for (let i = 0; i < id.length; i++) this.units[from + i] = id.charCodeAt(i);
    this.start[k + 1] = from + id.length;
    this.hashes[k] = hash;
    this.firstEpoch[k] = epoch;
    return k;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let k = 0; k < this.count; k++) {
      let slot = this.hashes[k] & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = k + 1;
    }
    this.slots = slots;
  }
}

/** FNV-1a over the UTF-16 units, then mixed so that the low bits index the table well. */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h;
}
