import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { generateRun } from "../../lib/generate/dataset";
import { deleteRun } from "../../lib/store/delete-run";
import { dropUnusedContents, storeContents, type ItemContent } from "../../lib/store/item-content";
import { loadNative } from "../../lib/store/load";
import type { RawTx } from "../../lib/store/raw";
import { orphanCounts } from "../helpers/faults";
import { STORE_KINDS } from "../helpers/stores";

// On PostgreSQL an item holds no foreign key to its content record (migration 0026): a load
// locks the records other runs wrote that it uses, and a delete of unused records locks them
// first (lib/store/item-content.ts). A record a load has just started to use must outlive the
// delete of its last run, whichever of the two comes first.

const postgres = STORE_KINDS.find((k) => k.name === "postgres");
if (!postgres) console.log("item-content-locks: skipped, STEPWISE_TEST_PG names no PostgreSQL server");

const runText = (key: string, seed: number) => {
  const { header, items } = generateRun({
    benchmark: "procedural-arith",
    runKey: key,
    lengths: [5, 15],
    itemsPerLength: 4,
    seed,
    simulateP: 0.9,
  });
  return [JSON.stringify(header), ...[...items()].map((i) => JSON.stringify(i))].join("\n") + "\n";
};

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

describe.skipIf(!postgres)("content records used while their last run is deleted, on PostgreSQL", () => {
  let store: Store;
  let drop: () => Promise<void>;
  const runId = async (key: string) => (await store.prisma.run.findUniqueOrThrow({ where: { key }, select: { id: true } })).id;
  /** The records of a run's items, as a load of the same items would give them to storeContents. */
  const recordsOf = async (key: string) =>
    store.raw.transaction(async (tx) =>
      (
        await tx.query<{ id: number; hash: Buffer; body: Buffer }>(
          `SELECT c."id", c."hash", c."body" FROM "ItemContent" c JOIN "Item" i ON i."contentId" = c."id" WHERE i."runId" = $1 ORDER BY c."id"`,
          [await runId(key)],
        )
      ).map((r) => ({ id: Number(r.id), record: { hash: Buffer.from(r.hash), body: Buffer.from(r.body) } as ItemContent })),
    );
  /** In one transaction: stores the records as a load does and gives a new item `key` of run `into` the first one. */
  const useRecords = async (tx: RawTx, records: ItemContent[], into: number, key: string) => {
    const ids = await storeContents(tx, records);
    await tx.exec(`INSERT INTO "Item" ("runId", "key", "length", "contentId") VALUES ($1, $2, 5, $3)`, [into, key, ids[0]]);
    return ids;
  };
  /** A load's transaction that stores the records and gives a new item `key` of run `into` the first one. */
  const loadUsing = (records: { record: ItemContent }[], into: number, key: string) =>
    store.raw.transaction((tx) =>
      useRecords(
        tx,
        records.map((r) => r.record),
        into,
        key,
      ),
    );
  /** What deleting a run does before it drops the records its items used. */
  const deleteRows = async (tx: RawTx, run: number) => {
    await tx.exec(`DELETE FROM "Item" WHERE "runId" = $1`, [run]);
    await tx.exec(`DELETE FROM "Generation" WHERE "runId" = $1`, [run]);
  };
  beforeAll(async () => {
    ({ store, drop } = await postgres!.create());
    for (const [key, seed] of [
      ["other", 1],
      ["first-load", 2],
      ["first-delete", 3],
      ["locked-first", 4],
    ] as const)
      expect((await loadNative(store, `${key}.jsonl`, [runText(key, seed)])).errors).toEqual([]);
  }, 60_000);
  afterAll(async () => drop?.());

  it("keeps a record a load took before the delete came: the delete waits for the load", async () => {
    const records = await recordsOf("first-load");
    const into = await runId("other");
    const [held, release] = [gate(), gate()];
    const load = store.raw.transaction(async (tx) => {
      await useRecords(
        tx,
        records.map((r) => r.record),
        into,
        "late-1",
      );
      held.open();
      await release.opened;
    });
    await held.opened;
    let deleted = false;
    const deleting = deleteRun(store.raw, "first-load").then((d) => ((deleted = true), d));
    await new Promise((r) => setTimeout(r, 300));
    expect(deleted).toBe(false); // waiting for the load's lock on the record
    release.open();
    await load;
    expect(await deleting).not.toBeNull();
    expect(await orphanCounts(store)).toMatchObject({ contents: 0, itemsWithoutContent: 0 });
    const kept = await store.raw.transaction((tx) => tx.query(`SELECT 1 FROM "ItemContent" WHERE "id" = $1`, [records[0].id]));
    expect(kept).toHaveLength(1); // the late item's; the run's others went
  });

  it("writes a record again that a delete dropped while the load waited for it", async () => {
    const records = await recordsOf("first-delete");
    const deletedRun = await runId("first-delete");
    const into = await runId("other");
    const [held, release] = [gate(), gate()];
    const deleting = store.raw.transaction(async (tx) => {
      await deleteRows(tx, deletedRun);
      expect(
        await dropUnusedContents(
          tx,
          records.map((r) => r.id),
        ),
      ).toBe(records.length);
      held.open();
      await release.opened;
    });
    await held.opened;
    let stored = false;
    const load = loadUsing(records, into, "late-2").then((ids) => ((stored = true), ids));
    await new Promise((r) => setTimeout(r, 300));
    expect(stored).toBe(false); // waiting for the delete
    release.open();
    await deleting;
    const ids = await load;
    expect(ids.every((id, k) => id !== records[k].id)).toBe(true); // written again, under new ids
    expect(await orphanCounts(store)).toMatchObject({ itemsWithoutContent: 0 });
  });

  it("writes a record again that a delete locked before the load and dropped while the load waited for it", async () => {
    const records = await recordsOf("locked-first");
    const deletedRun = await runId("locked-first");
    const into = await runId("other");
    const ids = records.map((r) => r.id);
    const [locked, dropNow] = [gate(), gate()];
    // dropUnusedContents's two statements, with the load started between them
    const deleting = store.raw.transaction(async (tx) => {
      await deleteRows(tx, deletedRun);
      await tx.query(`SELECT "id" FROM "ItemContent" WHERE "id" = ANY($1::int[]) ORDER BY "hash" FOR UPDATE`, [ids]);
      locked.open();
      await dropNow.opened;
      await tx.exec(`DELETE FROM "ItemContent" WHERE "id" = ANY($1::int[])`, [ids]);
    });
    await locked.opened;
    const load = loadUsing(records, into, "late-3");
    await new Promise((r) => setTimeout(r, 300)); // the load found the records and waits for their lock
    dropNow.open();
    await deleting;
    const stored = await load;
    expect(stored.every((id, k) => id !== ids[k])).toBe(true);
    expect(await orphanCounts(store)).toMatchObject({ itemsWithoutContent: 0 });
  });
});
