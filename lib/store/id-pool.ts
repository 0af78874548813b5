import type { RawTx } from "./raw";

const ID_BLOCK = 1000;

/** Hands out ids reserved in blocks, so a load makes one id query per thousand rows. */
export class IdPool {
  private next = new Map<string, [number, number]>();
  /** awaited before any query: the writer's writes still running (one query at a time on a client) */
  before: () => Promise<void> = async () => {};
  constructor(private tx: RawTx) {}
  async take(table: string): Promise<number> {
    let range = this.next.get(table);
    if (!range || range[0] > range[1]) range = await this.reserve(table);
    return range[0]++;
  }
  /** At least `n` ids at hand for `table` (one more query at most), so that `take` asks the store nothing. */
  async ensure(table: string, n: number): Promise<void> {
    const range = this.next.get(table);
    const left = range ? range[1] - range[0] + 1 : 0;
    if (left >= n) return;
    // the ids left over are skipped (harmless, as any unused ids are)
    await this.reserve(table, ID_BLOCK + n);
  }
  private async reserve(table: string, n = ID_BLOCK): Promise<[number, number]> {
    await this.before();
    const first = await this.tx.reserveIds(table, n);
    const range: [number, number] = [first, first + n - 1];
    this.next.set(table, range);
    return range;
  }
}
