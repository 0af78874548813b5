import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { exportRun } from "../../lib/store/export";
import { listMigrations } from "../../lib/store/migrate";
import { decodeStepTrace } from "../../lib/store/step-trace";
import { upgradedStore } from "../helpers/old-store";
import { stepTraceV1, writeArithTraces } from "../helpers/steps";
import { STORE_KINDS, storedRuns } from "../helpers/stores";

// Migration 0016 on a store made by the previous version (migrations up to 0015, step traces
// in version 1, procedural-arith's included): afterwards every record is the one today's writer
// makes for the same steps — none for procedural-arith, whose version-2 records migration 0021
// drops only where they decode to the steps recomputed from the item and output —, the steps
// read back unchanged, and export is the same.
const FILES = ["arith-small.jsonl", "dictsum-small.jsonl", "selfcond-small.jsonl", "generic-small.jsonl"];

const traces = async (s: Store) =>
  (
    await s.raw.transaction((tx) =>
      tx.query<{ id: number; stepTrace: Uint8Array | null }>(`SELECT "id", "stepTrace" FROM "Generation" ORDER BY "id"`),
    )
  ).map((r) => ({ id: Number(r.id), record: r.stepTrace === null ? null : Buffer.from(r.stepTrace).toString("base64") }));

describe.each(STORE_KINDS)("migration 0016 (step traces in version 2) on $name", (kind) => {
  let current: Store;
  let upgraded: Store;
  let drop: (() => Promise<void>) | undefined;
  let v1Bytes = 0;
  let arithRecords = 0;
  beforeAll(async () => {
    ({ current, upgraded, drop } = await upgradedStore(kind, {
      migration: "0016",
      files: FILES,
      rewrite: (table, row) => {
        if (table !== "Generation" || row.stepTrace === null) return;
        row.stepTrace = stepTraceV1(decodeStepTrace(row.stepTrace as Uint8Array)); // as the previous writer stored it
        v1Bytes += (row.stepTrace as Buffer).length;
      },
      // procedural-arith's records too, which loads stored then (0021 drops them once rewritten)
      after: async (src, dst) => {
        arithRecords = await writeArithTraces(src, dst, FILES, (steps) => {
          const record = stepTraceV1(steps);
          v1Bytes += record.length;
          return record;
        });
      },
    })); // opened: 0016 applied
  }, 120_000);
  afterAll(async () => drop?.());

  it("rewrites every record as today's writer writes it, in fewer bytes, with the same steps", async () => {
    const want = await traces(current);
    const got = await traces(upgraded);
    expect(got).toEqual(want);
    expect(arithRecords).toBeGreaterThanOrEqual(40); // arith-small.jsonl
    expect(got.filter((g) => g.record !== null).length).toBeGreaterThanOrEqual(50);
    const v2Bytes = got.reduce((t, g) => t + (g.record ? Buffer.from(g.record, "base64").length : 0), 0);
    expect(v2Bytes).toBeLessThan(v1Bytes);
    const applied = await upgraded.raw.transaction((tx) => tx.query<{ name: string }>(`SELECT "name" FROM "_stepwise_migrations"`));
    expect(applied.map((r) => r.name)).toEqual(listMigrations(kind.name).map((m) => m.name));
  });

  it("exports every run as before", async () => {
    for (const r of await storedRuns(current)) {
      const a: string[] = [];
      const b: string[] = [];
      for await (const l of exportRun(current.prisma, r.key)) a.push(l);
      for await (const l of exportRun(upgraded.prisma, r.key)) b.push(l);
      expect(b.length).toBeGreaterThan(1);
      expect(b).toEqual(a);
    }
  });
});
