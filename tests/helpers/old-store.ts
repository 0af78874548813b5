import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { expect } from "vitest";
import { openStore, type Store } from "../../lib/db";
import { decodeItemContent } from "../../lib/store/item-content";
import { loadNative } from "../../lib/store/load";
import { listMigrations } from "../../lib/store/migrate";
import { storedOutput } from "../../lib/store/output-text";
import { openRaw, type RawDb, type RawTx } from "../../lib/store/raw";
import { EXAMPLES } from "./fixtures";
import type { StoreKind } from "./stores";

// Stores as an earlier version left them, for the tests of a migration's data step: an empty
// database at the migrations before one, and rows copied into it from a store today's writer
// made, in the tables and columns the older schema had.

/** An empty database with the migrations before `migration` (e.g. "0014") applied, and its URL. */
export async function storeBefore(kind: StoreKind, migration: string): Promise<{ url: string; raw: RawDb; drop(): Promise<void> }> {
  let url: string;
  let dropDb = async () => {};
  if (kind.name === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `stepwise-${migration}-`));
    url = "file:" + path.join(dir, "old.db");
    dropDb = async () => fs.rmSync(dir, { recursive: true, force: true });
  } else {
    const admin = process.env.STEPWISE_TEST_PG!;
    const name = `stepwise_test_${migration}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`CREATE DATABASE "${name}"`);
    await c.end();
    const u = new URL(admin);
    u.pathname = "/" + name;
    url = u.toString();
    dropDb = async () => {
      const a = new pg.Client({ connectionString: admin });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await a.end();
    };
  }
  const raw = await openRaw(url);
  await raw.transaction(async (tx) => {
    await tx.exec('CREATE TABLE "_stepwise_migrations" ("name" TEXT PRIMARY KEY, "applied_at" TEXT NOT NULL)');
    for (const m of listMigrations(raw.provider).filter((m) => m.name < migration)) {
      await tx.script(m.sql);
      await tx.exec('INSERT INTO "_stepwise_migrations" ("name", "applied_at") VALUES ($1, $2)', [m.name, new Date().toISOString()]);
    }
  });
  return { url, raw, drop: dropDb };
}

async function columnsOf(tx: RawTx, table: string): Promise<Set<string>> {
  const rows =
    tx.provider === "sqlite"
      ? await tx.query<{ name: string }>(`SELECT "name" FROM pragma_table_info('${table}')`)
      : await tx.query<{ name: string }>(`SELECT column_name AS "name" FROM information_schema.columns WHERE table_name = $1`, [table]);
  return new Set(rows.map((c) => c.name));
}

/**
 * Copies `tables` (in order) from `src` to `dst`, ids kept, in the columns `dst` has. Where
 * `dst` predates migration 0014, items get back the input and reference text the writer
 * stored then (JSON.stringify of what their record decodes to: the same text).
 * Where `dst` predates migration 0015, generations get back their output as text.
 * `rewrite` may change a row on the way (an older writer's value of a column).
 */
export async function copyRows(
  src: RawTx,
  dst: RawTx,
  tables: readonly string[],
  rewrite: (table: string, row: Record<string, unknown>) => void = () => {},
): Promise<void> {
  for (const table of tables) {
    const had = await columnsOf(dst, table);
    const rows: Record<string, unknown>[] =
      table === "Item" && had.has("input")
        ? (
            await src.query<Record<string, unknown>>(`SELECT i.*, c."body" FROM "Item" i JOIN "ItemContent" c ON c."id" = i."contentId"`)
          ).map((r) => {
            const { input, reference } = decodeItemContent(r.body as Uint8Array);
            // a reference the record does not keep: `rewrite` gives the older writer's text
            return { ...r, input: JSON.stringify(input), reference: JSON.stringify(reference ?? []) };
          })
        : await src.query<Record<string, unknown>>(`SELECT * FROM "${table}"`);
    if (rows.length === 0) continue;
    if (table === "Generation" && !had.has("outputDeflated"))
      for (const r of rows) r.output = storedOutput(String(r.output), r.outputDeflated as Uint8Array | null);
    for (const r of rows) rewrite(table, r);
    const cols = Object.keys(rows[0]).filter((c) => had.has(c));
    await dst.insertRows(
      table,
      cols,
      rows.map((r) => cols.map((c) => (r[c] instanceof Date ? (r[c] as Date).toISOString() : r[c]))),
    );
    if (dst.provider === "postgres" && cols.includes("id"))
      await dst.exec(`SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), (SELECT MAX("id") FROM "${table}"))`);
  }
}

/** The tables of a store's runs, in an order their rows can be inserted in. */
const RUN_TABLES = [
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

/**
 * A migration's data test's two stores: `current`, today's writer's store of `files` (names in
 * EXAMPLES, or paths), the oracle; and `upgraded`, a store before `migration` given `current`'s
 * rows (copyRows of the run tables it has, with `rewrite`; then `after`, in the same
 * transactions, for what else the older writer stored), opened with openStore, which applies
 * `migration` and every later one. `drop` closes and drops both.
 */
export async function upgradedStore(
  kind: StoreKind,
  o: {
    migration: string;
    files: readonly string[];
    rewrite?: (table: string, row: Record<string, unknown>) => void;
    after?: (src: RawTx, dst: RawTx) => Promise<void>;
  },
): Promise<{ current: Store; upgraded: Store; drop(): Promise<void> }> {
  let current: { store: Store; drop(): Promise<void> } | undefined;
  let old: { raw: RawDb; drop(): Promise<void> } | undefined;
  let upgraded: Store | undefined;
  let rawOpen = false;
  const drop = async () => {
    await upgraded?.close();
    if (rawOpen) await old?.raw.close();
    await old?.drop();
    await current?.drop();
  };
  try {
    const cur = (current = await kind.create());
    for (const f of o.files) {
      const file = path.resolve(EXAMPLES, f);
      expect((await loadNative(cur.store, path.basename(file), fs.createReadStream(file))).errors).toEqual([]);
    }
    const before = await storeBefore(kind, o.migration);
    old = before;
    rawOpen = true;
    await cur.store.raw.transaction((src) =>
      before.raw.transaction(async (dst) => {
        const tables = [];
        for (const t of RUN_TABLES) if ((await columnsOf(dst, t)).size > 0) tables.push(t);
        await copyRows(src, dst, tables, o.rewrite);
        await o.after?.(src, dst);
      }),
    );
    await before.raw.close();
    rawOpen = false;
    upgraded = await openStore(before.url);
    return { current: cur.store, upgraded, drop };
  } catch (e) {
    await drop();
    throw e;
  }
}
