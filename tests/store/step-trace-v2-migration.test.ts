import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../lib/db";
import { exportRun } from "../../lib/store/export";
import { loadNative } from "../../lib/store/load";
import { listMigrations } from "../../lib/store/migrate";
import type { RawDb } from "../../lib/store/raw";
import { decodeStepTrace } from "../../lib/store/step-trace";
import { copyRows, storeBefore } from "../helpers/old-store";
import { EXAMPLES } from "../helpers/shared-data";
import { stepTraceV1 } from "../helpers/steps";
import { STORE_KINDS, storedRuns } from "../helpers/stores";

// Migration 0016 on a store made by the previous version (migrations up to 0015, step traces
// in version 1): afterwards every record is the one today's writer makes for the same steps,
// the steps read back unchanged, and export is the same.
const FILES = ["arith-small.jsonl", "dictsum-small.jsonl", "selfcond-small.jsonl", "generic-small.jsonl"];
const COPIED = [
  "Model",
  "Benchmark",
  "Variant",
  "Run",
  "ItemContent",
  "Item",
  "Generation",
  "RunLengthStat",
  "RunStepStat",
  "RunSignpost",
  "RunStudyStat",
];

const traces = async (s: Store) =>
  (
    await s.raw.transaction((tx) =>
      tx.query<{ id: number; stepTrace: Uint8Array | null }>(`SELECT "id", "stepTrace" FROM "Generation" ORDER BY "id"`),
    )
  ).map((r) => ({ id: Number(r.id), record: r.stepTrace === null ? null : Buffer.from(r.stepTrace).toString("base64") }));

describe.each(STORE_KINDS)("migration 0016 (step traces in version 2) on $name", (kind) => {
  let current: { store: Store; drop(): Promise<void> };
  let old: { url: string; raw: RawDb; drop(): Promise<void> };
  let upgraded: Store;
  let rawOpen = true;
  let v1Bytes = 0;
  beforeAll(async () => {
    current = await kind.create(); // today's writer: the oracle
    for (const f of FILES) expect((await loadNative(current.store, f, fs.createReadStream(path.join(EXAMPLES, f)))).errors).toEqual([]);
    old = await storeBefore(kind, "0016");
    await current.store.raw.transaction(async (src) => {
      await old.raw.transaction(async (dst) => {
        await copyRows(src, dst, COPIED, (table, row) => {
          if (table !== "Generation" || row.stepTrace === null) return;
          row.stepTrace = stepTraceV1(decodeStepTrace(row.stepTrace as Uint8Array)); // as the previous writer stored it
          v1Bytes += (row.stepTrace as Buffer).length;
        });
      });
    });
    await old.raw.close();
    rawOpen = false;
    upgraded = await openStore(old.url); // applies 0016
  }, 120_000);
  afterAll(async () => {
    await upgraded?.close();
    if (old && rawOpen) await old.raw.close();
    await old?.drop();
    await current?.drop();
  });

  it("rewrites every record as today's writer writes it, smaller, with the same steps", async () => {
    const want = await traces(current.store);
    const got = await traces(upgraded);
    expect(got).toEqual(want);
    expect(got.filter((g) => g.record !== null).length).toBeGreaterThan(50);
    const v2Bytes = got.reduce((t, g) => t + (g.record ? Buffer.from(g.record, "base64").length : 0), 0);
    expect(v2Bytes).toBeLessThan(v1Bytes);
    const applied = await upgraded.raw.transaction((tx) => tx.query<{ name: string }>(`SELECT "name" FROM "_stepwise_migrations"`));
    expect(applied.map((r) => r.name)).toEqual(listMigrations(kind.name).map((m) => m.name));
  });

  it("exports every run as before", async () => {
    for (const r of await storedRuns(current.store)) {
      const a: string[] = [];
      const b: string[] = [];
      for await (const l of exportRun(current.store.prisma, r.key)) a.push(l);
      for await (const l of exportRun(upgraded.prisma, r.key)) b.push(l);
      expect(b.length).toBeGreaterThan(1);
      expect(b).toEqual(a);
    }
  });
});
