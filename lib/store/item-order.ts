import { SIGNPOST_EVERY, type CountedSignpost } from "./signposts";

// Whether a run's generations are written in item order ((itemId, epoch) ascending, a bulk
// load's usual case), and while they are, what that order gives for free: each generation's
// ordinal is the running count, and its signposts (lib/store/signposts.ts) are counted as the
// rows come, so the store needs no ordered pass over the run at its end (~0.43 s on SQLite at
// 800,000 generations; docs/performance.md, "Load"). A run out of order is renumbered and its
// signposts found by those passes.
export class ItemOrder {
  private lastItem = -1;
  private lastEpoch = -1;
  private ordered = true;
  private all = 0;
  private failed = 0;
  private readonly counted: CountedSignpost[] = [];

  /** The next generation written. */
  add(itemId: number, epoch: number, firstCorrect: boolean): void {
    if (itemId < this.lastItem || (itemId === this.lastItem && epoch < this.lastEpoch)) this.ordered = false;
    this.lastItem = itemId;
    this.lastEpoch = epoch;
    if (!this.ordered) return;
    if (this.all % SIGNPOST_EVERY === 0) this.counted.push(["all", this.all, itemId, epoch]);
    this.all++;
    if (firstCorrect) return;
    if (this.failed % SIGNPOST_EVERY === 0) this.counted.push(["failed", this.failed, itemId, epoch]);
    this.failed++;
  }

  /** Every generation so far came after the one before. */
  get inOrder(): boolean {
    return this.ordered;
  }

  /** The run's signposts, counted; null when its generations did not come in item order. */
  signposts(): CountedSignpost[] | null {
    return this.ordered ? this.counted : null;
  }
}
