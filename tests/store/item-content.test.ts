import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { deleteRun } from "../../lib/store/delete-run";
import { NativeReader } from "../../lib/native/reader";
import { loadNative } from "../../lib/store/load";
import { prepareGeneration } from "../../lib/store/rows";
import { orphanCounts } from "../helpers/faults";
import { EXAMPLES } from "../helpers/fixtures";
import { STORE_KINDS } from "../helpers/stores";

// Items that share their content across runs store it once (ItemContent, lib/store/item-content.ts):
// a second run over the same items adds no record, a record stays while any run uses it and
// goes with the last, and a failed load leaves the records as they were.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-contents-"));
const all = fs.readFileSync(path.join(EXAMPLES, "arith-small.jsonl"), "utf8").trimEnd().split("\n");
// the file's first run only (a second run line follows its items)
const lines = all.slice(
  0,
  all.findIndex((l, i) => i > 0 && l.includes('"type":"run"')),
);
const header = JSON.parse(lines[0]) as { key: string };
/** arith-small.jsonl under another run key (another model over the same items). */
function underKey(key: string, extra: string[] = []): string {
  const f = path.join(dir, `${key}.jsonl`);
  fs.writeFileSync(f, [JSON.stringify({ ...header, key }), ...lines.slice(1), ...extra].join("\n") + "\n");
  return f;
}

describe.each(STORE_KINDS)("shared item records on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  const load = (f: string) => loadNative(store, path.basename(f), fs.createReadStream(f));
  const records = async () =>
    Number((await store.raw.transaction((tx) => tx.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "ItemContent"`)))[0].n);
  const items = async () =>
    Number((await store.raw.transaction((tx) => tx.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Item"`)))[0].n);
  const clean = async () => expect(await orphanCounts(store)).toMatchObject({ contents: 0, itemsWithoutContent: 0 });
  beforeAll(async () => ({ store, drop } = await kind.create()));
  afterAll(async () => {
    await drop();
  });

  it("stores one record per distinct item however many runs use it", async () => {
    expect((await load(underKey("a"))).errors).toEqual([]);
    const one = await records();
    const perRun = await items();
    expect(one).toBeGreaterThan(10);
    expect(one).toBeLessThanOrEqual(perRun);
    expect((await load(underKey("b"))).errors).toEqual([]);
    expect(await items()).toBe(2 * perRun);
    expect(await records()).toBe(one);
    await clean();
  });

  it("keeps the records through a failed load and a replacement", async () => {
    const one = await records();
    const bad = await load(underKey("c", ['{"type":"item","id":"new-item","input":{"x":1,"y":2,"steps":[]},"output":"S1 = 1"}', "{"]));
    expect(bad.errors.length).toBeGreaterThan(0);
    expect(await records()).toBe(one);
    expect((await load(underKey("a"))).errors).toEqual([]); // replaces run a
    expect(await records()).toBe(one);
    await clean();
  });

  it("drops a record with the last run that uses it", async () => {
    const one = await records();
    expect(await deleteRun(store.raw, "a")).not.toBeNull();
    expect(await records()).toBe(one); // run b still uses them
    // a replacement whose items differ drops the records only the old version used
    const other = path.join(dir, "b2.jsonl");
    fs.writeFileSync(other, [JSON.stringify({ ...header, key: "b" }), lines[1]].join("\n") + "\n");
    expect((await load(other)).errors).toEqual([]);
    expect(await records()).toBe(1);
    await clean();
    expect(await deleteRun(store.raw, "b")).not.toBeNull();
    expect(await records()).toBe(0);
    await clean();
  });
});

describe("item records built once per item", () => {
  it("marks an item's later epochs, whose rows carry no record", () => {
    const reader = new NativeReader("x.jsonl");
    const epochs = [0, 1, 2];
    const run = { ...JSON.parse(lines[0]), config: { ...JSON.parse(lines[0]).config, epochs: epochs.length } };
    const events = [
      JSON.stringify(run),
      ...epochs.flatMap((epoch) => lines.slice(1).map((l) => JSON.stringify({ ...JSON.parse(l), epoch }))),
    ]
      .map((l, i) => reader.line(l, i + 1))
      .filter((e) => e?.kind === "generation");
    expect(reader.errors).toEqual([]);
    const items = lines.length - 1;
    expect(events.filter((e) => e.firstOfItem).length).toBe(items);
    const prepared = events.map((e) => prepareGeneration(e));
    // items numbered by first appearance: each epoch repeats the first epoch's numbers
    expect(prepared.map((p) => p.itemIndex)).toEqual(epochs.flatMap(() => [...Array(items).keys()]));
    expect(prepared.slice(0, items).every((p) => p.content !== null)).toBe(true);
    expect(prepared.slice(items).every((p) => p.content === null)).toBe(true);
  });
});
