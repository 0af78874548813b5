import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { deleteRun } from "../../lib/store/delete-run";
import { NO_ORPHANS, orphanCounts, runSnapshot } from "../helpers/faults";
import { copyRows, upgradedStore } from "../helpers/old-store";
import { STORE_KINDS, storedRuns } from "../helpers/stores";

// Migration 0022 on PostgreSQL: a run's items, generations and search-index rows lose their
// foreign key to "Run" and a trigger deletes them with it. A store of the previous version ends
// with the keys and triggers of a new one, keeps its rows, and a delete leaves none behind.
const PG = STORE_KINDS.find((k) => k.name === "postgres");

/** Foreign keys and triggers of the run tables, by name: the schema 0022 changes. */
const keysAndTriggers = async (s: Store) =>
  s.raw.transaction(async (tx) => {
    const keys = await tx.query<{ name: string }>(
      `SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS "name" FROM pg_constraint
        WHERE contype = 'f' AND conrelid::regclass::text IN ('"Generation"', '"Item"', '"SearchPosting"') ORDER BY 1`,
    );
    const triggers = await tx.query<{ name: string }>(
      `SELECT tgrelid::regclass::text || ' ' || tgname AS "name" FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`,
    );
    return [...keys, ...triggers].map((r) => r.name);
  });

describe.skipIf(!PG)("migration 0022 (a run's rows without foreign keys to it, PostgreSQL)", () => {
  let current: Store;
  let upgraded: Store;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ current, upgraded, drop } = await upgradedStore(PG!, {
      migration: "0022",
      files: ["arith-small.jsonl", "dictsum-small.jsonl"],
      after: (src, dst) => copyRows(src, dst, ["SearchPosting"]),
    }));
  }, 120_000);
  afterAll(async () => drop?.());

  it("leaves the keys and triggers a new store has, and the rows as they were", async () => {
    const schema = await keysAndTriggers(upgraded);
    expect(schema).toEqual(await keysAndTriggers(current));
    expect(schema.some((s) => s.includes("runId"))).toBe(false);
    expect(schema).toContain('"Run" Run_rows_delete');
    for (const { key } of await storedRuns(current)) expect(await runSnapshot(upgraded, key)).toEqual(await runSnapshot(current, key));
  });

  it("deletes a run's rows with it on the upgraded store", async () => {
    const [first, second] = (await storedRuns(upgraded)).map((r) => r.key);
    const other = await runSnapshot(upgraded, second);
    const postingsOf = async (key: string) =>
      Number(
        (
          await upgraded.raw.transaction((tx) =>
            tx.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "SearchPosting" p JOIN "Run" r ON r."id" = p."runId" WHERE r."key" = $1`, [
              key,
            ]),
          )
        )[0].n,
      );
    expect(await postingsOf(first)).toBeGreaterThan(0);
    expect(await postingsOf(second)).toBeGreaterThan(0);
    expect(await deleteRun(upgraded.raw, first)).not.toBeNull();
    expect(await orphanCounts(upgraded)).toEqual(NO_ORPHANS);
    const postings = await upgraded.raw.transaction((tx) =>
      tx.query<{ n: number }>(
        `SELECT COUNT(*) AS "n" FROM "SearchPosting" p WHERE NOT EXISTS (SELECT 1 FROM "Run" r WHERE r."id" = p."runId")`,
      ),
    );
    expect(Number(postings[0].n)).toBe(0);
    expect(await runSnapshot(upgraded, second)).toEqual(other);
    expect(await postingsOf(second)).toBeGreaterThan(0);
  });
});
