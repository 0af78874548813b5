import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { NativeReader } from "../../lib/native/reader";
import { exportRun } from "../../lib/store/export";
import { decodeItemContent } from "../../lib/store/item-content";
import { loadNative } from "../../lib/store/load";
import { listMigrations } from "../../lib/store/migrate";
import { orphanCounts } from "../helpers/faults";
import { upgradedStore } from "../helpers/old-store";
import { EXAMPLES } from "../helpers/fixtures";
import { STORE_KINDS, storedRuns } from "../helpers/stores";

// Migration 0014 on a store made by the previous version: migrations 0001–0013 and the rows
// its writer stored (each item's input and reference as text, each analysis with the operand
// values of its wrong steps). After the upgrade the items' records, the analyses and the
// share of records between runs must be what today's writer stores for the same files, and
// the runs' metrics and export unchanged.
const FILES = ["arith-small.jsonl", "dictsum-small.jsonl", "selfcond-small.jsonl", "generic-small.jsonl"];
const rerun = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-0014-")), "arith-rerun.jsonl");

describe.each(STORE_KINDS)("migration 0014 (shared item records, analyses without operands) on $name", (kind) => {
  let current: Store;
  let upgraded: Store;
  let drop: (() => Promise<void>) | undefined;
  let withOperands = 0;
  beforeAll(async () => {
    // the same items under a second run key: the two runs share every record
    const all = fs.readFileSync(path.join(EXAMPLES, "arith-small.jsonl"), "utf8").split("\n");
    const lines = all.slice(
      0,
      all.findIndex((l, i) => i > 0 && l.includes('"type":"run"')),
    ); // the first run
    const header = JSON.parse(lines[0]) as { key: string };
    fs.writeFileSync(rerun, [JSON.stringify({ ...header, key: header.key + "-rerun" }), ...lines.slice(1)].join("\n"));
    // the previous writer's analyses: today's, plus each wrong step's operands, and its items'
    // reference text, recomputed for every benchmark (rows.ts before 0014)
    const operands = new Map<string, Record<number, unknown>>();
    const references = new Map<string, string>();
    for (const f of [...FILES.map((f) => path.join(EXAMPLES, f)), rerun]) {
      const reader = new NativeReader(f);
      fs.readFileSync(f, "utf8")
        .split("\n")
        .forEach((l, i) => {
          const ev = reader.line(l, i + 1);
          if (ev?.kind !== "generation") return;
          const o: Record<number, unknown> = {};
          for (const s of ev.analysis.steps) if (s.operands && s.status !== "correct") o[s.step] = s.operands;
          operands.set(`${ev.header.key}\u0000${ev.item.id}\u0000${ev.item.epoch}`, o);
          references.set(`${ev.header.key}\u0000${ev.item.id}`, JSON.stringify(ev.analysis.reference));
        });
    }
    const runKeys = new Map<number, string>(); // Run rows are copied before items and generations
    ({ current, upgraded, drop } = await upgradedStore(kind, {
      migration: "0014",
      files: [...FILES, rerun],
      rewrite: (table, row) => {
        if (table === "Run") runKeys.set(Number(row.id), String(row.key));
        if (table === "Item") {
          const ref = references.get(`${runKeys.get(Number(row.runId))}\u0000${row.key}`);
          expect(ref, `${row.key}`).toBeDefined();
          row.reference = ref;
        }
        if (table !== "Generation") return;
        const o = operands.get(`${runKeys.get(Number(row.runId))}\u0000${row.itemKey}\u0000${row.epoch}`);
        expect(o, `${row.itemKey}`).toBeDefined();
        if (Object.keys(o!).length) withOperands++;
        row.analysis = JSON.stringify({ ...JSON.parse(String(row.analysis)), operands: o });
      },
    })); // opened: 0014 applied
  }, 120_000);
  afterAll(async () => drop?.());

  const contents = async (s: Store) =>
    (
      await s.raw.transaction((tx) =>
        tx.query<{ run: string; key: string; hash: Uint8Array; body: Uint8Array }>(
          `SELECT r."key" AS "run", i."key", c."hash", c."body" FROM "Item" i JOIN "Run" r ON r."id" = i."runId"
           JOIN "ItemContent" c ON c."id" = i."contentId" ORDER BY r."key", i."key"`,
        ),
      )
    ).map((r) => [r.run, r.key, Buffer.from(r.hash).toString("hex"), Buffer.from(r.body).toString("base64")]);
  const count = async (s: Store, sql: string) => Number((await s.raw.transaction((tx) => tx.query<{ n: number }>(sql)))[0].n);

  it("gives every item the record today's writer stores, one record per distinct item", async () => {
    const want = await contents(current);
    expect(want.length).toBeGreaterThan(100);
    expect(await contents(upgraded)).toEqual(want);
    const distinct = await count(current, `SELECT COUNT(*) AS "n" FROM "ItemContent"`);
    expect(distinct).toBeLessThan(want.length); // the rerun shares its items' records
    expect(await count(upgraded, `SELECT COUNT(*) AS "n" FROM "ItemContent"`)).toBe(distinct);
    // the reference is kept where it is the file's data (generic), recomputed elsewhere
    const kept = await upgraded.raw.transaction((tx) =>
      tx.query<{ benchmark: string; body: Uint8Array }>(
        `SELECT r."benchmark", c."body" FROM "Item" i JOIN "Run" r ON r."id" = i."runId" JOIN "ItemContent" c ON c."id" = i."contentId"`,
      ),
    );
    expect([...new Set(kept.map((k) => k.benchmark))].sort()).toEqual(["dict-sum", "generic", "procedural-arith"]);
    for (const k of kept) expect(decodeItemContent(k.body).reference !== null, k.benchmark).toBe(k.benchmark === "generic");
    expect(await orphanCounts(upgraded)).toMatchObject({ contents: 0, itemsWithoutContent: 0, items: 0, generations: 0 });
  });

  it("stores each analysis as today's writer does: without operands", async () => {
    expect(withOperands).toBeGreaterThan(10);
    const analyses = async (s: Store) =>
      (
        await s.raw.transaction((tx) =>
          tx.query<{ id: number; analysis: string }>(`SELECT "id", "analysis" FROM "Generation" ORDER BY "id"`),
        )
      ).map((r) => [Number(r.id), r.analysis]);
    expect(await analyses(upgraded)).toEqual(await analyses(current));
  });

  it("drops the text columns, records the migration once, keeps metrics and export, and loads new files afterwards", async () => {
    const columns = await upgraded.raw.transaction((tx) =>
      tx.query<{ name: string }>(
        upgraded.provider === "sqlite"
          ? `SELECT "name" FROM pragma_table_info('Item')`
          : `SELECT column_name AS "name" FROM information_schema.columns WHERE table_name = 'Item'`,
      ),
    );
    expect(columns.map((c) => c.name).sort()).toEqual(["contentId", "id", "inducedErrorRate", "key", "length", "runId"]);
    const applied = await upgraded.raw.transaction((tx) =>
      tx.query<{ name: string }>(`SELECT "name" FROM "_stepwise_migrations" ORDER BY "name"`),
    );
    expect(applied.map((r) => r.name)).toEqual(listMigrations(upgraded.provider).map((m) => m.name));
    expect(await storedRuns(upgraded)).toEqual(await storedRuns(current));
    for (const run of await storedRuns(current)) {
      const lines = async (s: Store) => {
        const out: string[] = [];
        for await (const l of exportRun(s.prisma, run.key)) out.push(l);
        return out;
      };
      expect(await lines(upgraded), run.key).toEqual(await lines(current));
    }
    const before = await count(upgraded, `SELECT COUNT(*) AS "n" FROM "ItemContent"`);
    const again = await loadNative(upgraded, "arith-small.jsonl", fs.createReadStream(path.join(EXAMPLES, "arith-small.jsonl")));
    expect(again.errors).toEqual([]);
    expect(await count(upgraded, `SELECT COUNT(*) AS "n" FROM "ItemContent"`)).toBe(before); // replaced, records kept
    expect(await orphanCounts(upgraded)).toMatchObject({ contents: 0, itemsWithoutContent: 0 });
  });
});
