// A run's items numbered by first appearance, and its (item, epoch) pairs checked for repeats.
// The reader numbers them, so the writer on the other thread keeps no item ids of its own.
// The ids are kept as UTF-8 in one growing byte array under an open-addressing table of
// numbers, not as a Map of strings: ~41 bytes an item for ids of ~15 characters, against ~80
// (docs/performance.md, "Memory"). Past ITEMS_IN_MEMORY items a run's table moves to a
// temporary database (lib/native/item-spill.ts), so that memory stops growing with the run.

import { grow, growable } from "../analysis/growable";
import { ItemSpill } from "./item-spill";

const EMPTY = 0;
const BIG_EPOCH = -1;
/** Starts the bytes of an id that is not well-formed UTF-16 (a lone surrogate), kept as its UTF-16 units: no UTF-8 byte is 0xFF. */
const RAW_UTF16 = 0xff;
const utf8 = new TextEncoder();
const LONE_SURROGATE = /\p{Cs}/u;

/** Most items one run may have. */
export const MAX_ITEMS = 2 ** 27;
const MAX_ID_BYTES = 2 ** 31 - 1;
/** Items a run's table holds in memory (~41 MB at ~15-character ids) before it moves to disk. */
const ITEMS_IN_MEMORY = 1_000_000;

type Seen = { index: number; first: boolean } | null;

/**
 * Numbers a run's items by first appearance (`see`): in memory, then past `inMemory` items in a
 * temporary database. `close` lets the database go.
 */
export class ItemNumbering {
  private table: ItemTable | null;
  private spill: ItemSpill | null = null;
  private readonly id = new IdBytes();

  /** `hash`: only tests give another (a poor one, so that ids collide); `inMemory`: tests give a small one */
  constructor(
    hash: (bytes: Uint8Array, length: number) => number = hashOf,
    private readonly inMemory = ITEMS_IN_MEMORY,
  ) {
    this.table = new ItemTable(hash);
  }

  get count(): number {
    return this.spill ? this.spill.count : this.table!.count;
  }

  /**
   * The item's number for a generation of `epoch`, `first` when the run had no generation of
   * it before; null when the run already had this item at this epoch.
   */
  see(id: string, epoch: number): Seen {
    const length = this.id.encode(id);
    if (this.spill) return this.spill.see(Buffer.from(this.id.bytes.buffer, 0, length), epoch);
    const seen = this.table!.see(this.id.bytes, length, epoch);
    if (seen?.first && this.table!.count > this.inMemory) {
      const spill = new ItemSpill();
      this.table!.moveTo(spill);
      this.spill = spill;
      this.table = null;
    }
    return seen;
  }

  close(): void {
    this.spill?.close();
  }
}

/** An id's bytes: UTF-8, or its UTF-16 units after RAW_UTF16 when it has a lone surrogate. */
class IdBytes {
  bytes = new Uint8Array(256);

  /** Writes the id's bytes into `bytes`; their number. */
  encode(id: string): number {
    if (this.bytes.length < id.length * 3 + 1) this.bytes = new Uint8Array(id.length * 3 + 1);
    if (!LONE_SURROGATE.test(id)) return utf8.encodeInto(id, this.bytes).written;
    this.bytes[0] = RAW_UTF16;
    for (let i = 0; i < id.length; i++) {
      const u = id.charCodeAt(i);
      this.bytes[1 + 2 * i] = u >> 8;
      this.bytes[2 + 2 * i] = u & 0xff;
    }
    return 1 + 2 * id.length;
  }
}

class ItemTable {
  /** the ids' bytes, one after the other; item k's are bytes start[k] .. start[k + 1] */
  private readonly bytes = growable(Uint8Array, 16384, MAX_ID_BYTES);
  private readonly start = growable(Int32Array, 1025, MAX_ITEMS + 1);
  private readonly hashes = growable(Int32Array, 1024, MAX_ITEMS);
  /**
   * the epoch of each item's first generation; BIG_EPOCH for one outside 0 .. 2^31 − 1 (a line may give
   * any safe integer), which bigFirstEpochs holds: 4 bytes an item where a Float64Array took 8
   */
  private readonly firstEpoch = growable(Int32Array, 1024, MAX_ITEMS);
  private bigFirstEpochs = new Map<number, number>();
  /** the later epochs of items that have several (most runs have none) */
  private laterEpochs = new Map<number, Set<number>>();
  /** item number + 1 per slot, EMPTY for none; a power of two, at most half full */
  private slots = new Int32Array(2048);
  count = 0;

  constructor(private readonly hash: (bytes: Uint8Array, length: number) => number) {}

  /** ItemNumbering.see for an id given as the first `length` bytes of `key` */
  see(key: Uint8Array, length: number, epoch: number): Seen {
    const hash = this.hash(key, length);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (;;) {
      const k = this.slots[slot] - 1;
      if (k < 0) break;
      if (this.hashes[k] === hash && this.idIs(k, key, length)) return this.again(k, epoch);
      slot = (slot + 1) & mask;
    }
    const index = this.add(key, length, hash, epoch);
    this.slots[slot] = index + 1;
    if (this.count * 2 > this.slots.length) this.rehash();
    return { index, first: true };
  }

  /** Hands every item, in order, to `spill`. */
  moveTo(spill: ItemSpill): void {
    for (let k = 0; k < this.count; k++) {
      const first = this.firstEpoch[k];
      const id = Buffer.from(this.bytes.subarray(this.start[k], this.start[k + 1]));
      spill.take(id, first === BIG_EPOCH ? this.bigFirstEpochs.get(k)! : first, this.laterEpochs.get(k) ?? []);
    }
  }

  private again(k: number, epoch: number): Seen {
    const first = this.firstEpoch[k];
    if ((first === BIG_EPOCH ? this.bigFirstEpochs.get(k) : first) === epoch) return null;
    let later = this.laterEpochs.get(k);
    if (!later) this.laterEpochs.set(k, (later = new Set()));
    if (later.has(epoch)) return null;
    later.add(epoch);
    return { index: k, first: false };
  }

  private idIs(k: number, key: Uint8Array, length: number): boolean {
    const from = this.start[k];
    if (this.start[k + 1] - from !== length) return false;
    for (let i = 0; i < length; i++) if (this.bytes[from + i] !== key[i]) return false;
    return true;
  }

  private add(key: Uint8Array, length: number, hash: number, epoch: number): number {
    const k = this.count++;
    if (k === this.hashes.length) {
      grow(this.hashes, k + 1, "items");
      grow(this.firstEpoch, this.hashes.length, "items");
      grow(this.start, this.hashes.length + 1, "items");
    }
    const from = this.start[k];
    if (from + length > this.bytes.length) grow(this.bytes, from + length, "bytes of item ids");
    this.bytes.set(key.subarray(0, length), from);
    this.start[k + 1] = from + length;
    this.hashes[k] = hash;
    if (epoch >= 0 && epoch <= 0x7fffffff) this.firstEpoch[k] = epoch;
    else {
      this.firstEpoch[k] = BIG_EPOCH;
      this.bigFirstEpochs.set(k, epoch);
    }
    return k;
  }

  private rehash(): void {
    // a table of its own (its layout changes), not from glibc's heap either
    const slots = growable(Int32Array, this.slots.length * 2, this.slots.length * 2);
    const mask = slots.length - 1;
    for (let k = 0; k < this.count; k++) {
      let slot = this.hashes[k] & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = k + 1;
    }
    this.slots = slots;
  }
}

/** FNV-1a over the bytes, then mixed so that the low bits index the table well. */
function hashOf(bytes: Uint8Array, length: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h;
}
