import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Store } from "../../lib/db";
import { getAllRunItems } from "../../lib/queries/items";
import { exportRun } from "../../lib/store/export";
import { loadNative } from "../../lib/store/load";
import { listMigrations } from "../../lib/store/migrate";
import { parseRunParams } from "../../lib/url/run";
import { upgradedStore } from "../helpers/old-store";
import { searchIndexExact } from "../helpers/search-index";
import { EXAMPLES } from "../helpers/fixtures";
import { adminContext, runAccess, STORE_KINDS, storedRuns } from "../helpers/stores";

vi.mock("server-only", () => ({}));

// Migration 0015 on a store made by the previous version (migrations up to 0014, outputs as
// text, SQLite's search index reading them from the table): afterwards every output reads
// back the same, SQLite holds it deflated (the bytes today's writer stores) and its
// contentless index holds every generation, searches find what they found before, export
// is unchanged, and new files load.
const FILES = ["arith-small.jsonl", "dictsum-small.jsonl", "selfcond-small.jsonl", "generic-small.jsonl"];
const QUERIES = ["S3 = ", "answer", "ANSWER", "= 1", "<answer>4", "zzz", "7"];

const outputs = async (s: Store) =>
  (
    await s.raw.transaction((tx) =>
      tx.query<{ id: number; output: string; outputDeflated: Uint8Array | null }>(
        `SELECT "id", "output", "outputDeflated" FROM "Generation" ORDER BY "id"`,
      ),
    )
  ).map((r) => ({
    id: Number(r.id),
    output: String(r.output),
    deflated: r.outputDeflated === null ? null : Buffer.from(r.outputDeflated).toString("base64"),
  }));

describe.each(STORE_KINDS)("migration 0015 (outputs deflated on SQLite) on $name", (kind) => {
  let current: Store;
  let upgraded: Store;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ current, upgraded, drop } = await upgradedStore(kind, {
      migration: "0015",
      files: FILES, // outputs copied as text, as the previous version stored them
      // the previous version's index read the outputs from the table
      after: async (_src, dst) => {
        if (dst.provider === "sqlite") await dst.exec(`INSERT INTO "GenerationFts"("GenerationFts") VALUES ('rebuild')`);
      },
    })); // opened: 0015 and every later migration applied
  }, 120_000);
  afterAll(async () => drop?.());

  it("stores every output as today's writer does, and reads it back unchanged", async () => {
    const want = await outputs(current);
    const got = await outputs(upgraded);
    expect(got).toEqual(want);
    const deflated = got.filter((g) => g.deflated !== null).length;
    if (kind.name === "sqlite") {
      expect(deflated).toBeGreaterThan(50);
      expect(got.every((g) => g.deflated !== null || g.output === "")).toBe(true);
    } else expect(deflated).toBe(0);
  });

  it("indexes every generation again and finds what today's store finds", async () => {
    expect(await searchIndexExact(upgraded)).toBe(true);
    for (const run of await storedRuns(current)) {
      for (const q of QUERIES) {
        const found = async (s: Store) => {
          const ctx = adminContext(s);
          return (await getAllRunItems(ctx, await runAccess(ctx, run.key), parseRunParams({ q }), 5000)).map(
            (r) => `${r.itemId}/${r.epoch}`,
          );
        };
        expect(await found(upgraded), `${run.key} q=${q}`).toEqual(await found(current));
      }
    }
    const ctx = adminContext(upgraded);
    const arith = (await storedRuns(upgraded)).find((r) => r.benchmark === "procedural-arith")!;
    expect((await getAllRunItems(ctx, await runAccess(ctx, arith.key), parseRunParams({ q: "S3 = " }), 5000)).length).toBeGreaterThan(0);
  });

  it("keeps the runs' export, records the migration once, and loads new files afterwards", async () => {
    expect(await storedRuns(upgraded)).toEqual(await storedRuns(current));
    for (const run of await storedRuns(current)) {
      const lines = async (s: Store) => {
        const out: string[] = [];
        for await (const l of exportRun(s.prisma, run.key)) out.push(l);
        return out;
      };
      expect(await lines(upgraded), run.key).toEqual(await lines(current));
    }
    const applied = await upgraded.raw.transaction((tx) =>
      tx.query<{ name: string }>(`SELECT "name" FROM "_stepwise_migrations" ORDER BY "name"`),
    );
    expect(applied.map((r) => r.name)).toEqual(listMigrations(upgraded.provider).map((m) => m.name));
    const again = await loadNative(upgraded, "arith-small.jsonl", fs.createReadStream(path.join(EXAMPLES, "arith-small.jsonl")));
    expect(again.errors).toEqual([]);
    expect(await searchIndexExact(upgraded)).toBe(true);
  });
});
