import { beforeAll, describe, expect, it } from "vitest";
import type { GenerateOptionsInput } from "../../lib/generate/dataset";
import { generateDataset } from "../../lib/generate/dataset";
import { loadNative } from "../../lib/store/load";
import { NO_ORPHANS, orphanCounts } from "../helpers/faults";
import { loadedRows, twoStores } from "../helpers/load-rows";
import { STORE_KINDS } from "../helpers/stores";

// The server's store (sharesEventLoop) writes a SQLite batch in slices, each followed by a turn
// of the event loop, so that requests are answered during a load (lib/store/run-writer.ts). The
// rows must be exactly those of a load that writes whole batches, and the turns must happen.
const RUN_COLUMNS = `key, metrics, extras, "itemCount", "generationCount", h50`;

const dataset = (seed: number) => [
  ...generateDataset({
    benchmark: "procedural-arith",
    model: "turns-model",
    variantName: "turns",
    runKey: "turns",
    lengths: [3, 7, 11],
    itemsPerLength: 400,
    seed,
    simulateP: 0.97,
  } as GenerateOptionsInput),
];
const lines = dataset(5);

/** Turns of the event loop while `work` runs: each one lets a waiting request in. */
async function countTurns(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let on = true;
  const tick = () => {
    turns++;
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  await work();
  on = false;
  return turns;
}

describe.each(STORE_KINDS)("a load on the server's store on $name", (kind) => {
  const stores = twoStores(kind);
  beforeAll(() => void (stores.b.sharesEventLoop = true));

  it("writes the rows a whole-batch load writes, giving the event loop a turn per slice on SQLite", async () => {
    const load = (store: typeof stores.a) => loadNative(store, "turns.jsonl", [lines.join("\n")]);
    let a: Awaited<ReturnType<typeof loadNative>> | undefined;
    let b: Awaited<ReturnType<typeof loadNative>> | undefined;
    const turnsWhole = await countTurns(async () => (a = await load(stores.a)));
    const turnsSliced = await countTurns(async () => (b = await load(stores.b)));
    expect(b).toEqual(a);
    expect(a!.generations).toBe(1200);
    expect(await loadedRows(stores.b, RUN_COLUMNS, { search: true })).toEqual(await loadedRows(stores.a, RUN_COLUMNS, { search: true }));
    // the same run again: the old one's rows go first, in slices on the server's store
    const turnsReplacing = await countTurns(async () => (b = await load(stores.b)));
    a = await load(stores.a);
    expect(b).toEqual(a);
    expect(b!.runs[0].replaced).toBe(true);
    expect(await orphanCounts(stores.b)).toEqual(NO_ORPHANS);
    expect(await loadedRows(stores.b, RUN_COLUMNS, { search: true })).toEqual(await loadedRows(stores.a, RUN_COLUMNS, { search: true }));
    if (kind.name === "sqlite") {
      // 1,200 generations: 3 batches of at most 500, each in slices of 64 rows with a turn after
      // each, and the search index's rows (one block of ids) 200 at a time with a turn after each
      expect(turnsWhole).toBeLessThan(10);
      expect(turnsSliced).toBeGreaterThanOrEqual(Math.ceil(1200 / 64) + 2);
      // and the replaced run's 1,200 generations and 1,200 items, 250 rows at a time
      expect(turnsReplacing - turnsSliced).toBeGreaterThanOrEqual(2 * Math.ceil(1200 / 250));
    }
  }, 120_000);

  it("drops the contents only the replaced run used, in slices on SQLite, and keeps the others", async () => {
    // other items under the same key: the old run's 1,200 contents go (two slices of 1,000), then come back
    for (const file of [dataset(6), lines]) {
      const load = (store: typeof stores.a) => loadNative(store, "turns.jsonl", [file.join("\n")]);
      const turns = await countTurns(async () => expect((await load(stores.b)).ok).toBe(true));
      await load(stores.a);
      expect(await orphanCounts(stores.b)).toEqual(NO_ORPHANS);
      expect(await loadedRows(stores.b, RUN_COLUMNS, { search: true })).toEqual(await loadedRows(stores.a, RUN_COLUMNS, { search: true }));
      if (kind.name === "sqlite") expect(turns).toBeGreaterThanOrEqual(2 * Math.ceil(1200 / 250) + 2);
    }
  }, 120_000);
});
