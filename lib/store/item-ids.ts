import { grow, growable } from "../analysis/growable";
import { MAX_ITEMS } from "../native/item-numbering";

// The store's id of each item of a run, by the item's number (numbered by first appearance). A
// new item takes the next id of the writer's block of ids (lib/store/id-pool.ts), so the ids of
// items numbered one after the other are mostly consecutive: kept as ranges of consecutive ids,
// one per block of ids, instead of 4 bytes an item (a run may have millions of items and
// holds them until its last line: docs/performance.md, "Memory").

export class ItemIds {
  /** first item number of each range, ascending */
  private readonly firstItem = growable(Int32Array, 64, MAX_ITEMS);
  /** the id of that item; the range's next items have the next ids */
  private readonly firstId = growable(Float64Array, 64, MAX_ITEMS);
  /** ranges kept */
  ranges = 0;
  /** items given an id so far */
  count = 0;

  /** Item `item` (the next number: `count`) has the store's id `id`. */
  add(item: number, id: number): void {
    if (item !== this.count) throw new Error(`internal: item ${item} given an id before item ${this.count}`);
    this.count++;
    const r = this.ranges - 1;
    if (r >= 0 && this.firstId[r] + (item - this.firstItem[r]) === id) return;
    if (this.ranges === this.firstItem.length) {
      grow(this.firstItem, this.ranges + 1, "ranges of item ids");
      grow(this.firstId, this.firstItem.length, "ranges of item ids");
    }
    this.firstItem[this.ranges] = item;
    this.firstId[this.ranges] = id;
    this.ranges++;
  }

  /** The id of item `item` (given by `add`). */
  get(item: number): number {
    if (item < 0 || item >= this.count) throw new Error(`internal: item ${item} has no id`);
    let lo = 0;
    let hi = this.ranges - 1;
    // the last range whose first item is at most `item`
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.firstItem[mid] <= item) lo = mid;
      else hi = mid - 1;
    }
    return this.firstId[lo] + (item - this.firstItem[lo]);
  }
}
