import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { fileChunks, readLines } from "../../lib/store/read-lines";
import { child, fmt, freshPgDatabase, loaderChild } from "./util";

// One file's load beside its two floors, on both stores: the parse floor (stream the file and
// JSON.parse every line: what any loader pays), the raw-insert baseline (the rows our loader
// wrote, copied into a fresh store by the database's fastest path), and the store's bytes
// against the file's. Used by `npm run bench` and by scripts/bench/compare-file.ts.

export interface FileFigures {
  file: string;
  fileBytes: number;
  lines: number;
  parseSeconds: number;
  /** CPU time of the parse floor (one thread) */
  parseCpuSeconds: number;
  stores: StoreFigures[];
}

export interface StoreFigures {
  provider: "SQLite" | "PostgreSQL";
  items: number;
  generations: number;
  /** the load up to its commit; searchIndexSeconds: the search index after it (SQLite) */
  loadSeconds: number;
  searchIndexSeconds: number;
  /** CPU time of the loading process, both threads, search index included (SQLite runs in it; PostgreSQL's server work does not count) */
  cpuSeconds: number;
  maxRssMB: number;
  baselineSeconds: number;
  baselineRows: number;
  /** tables + indexes + search index (+ WAL after a checkpoint, SQLite) */
  storeBytes: number;
  /** bytes by table (its indexes included), largest first */
  tables: [string, number][];
}

/** Streams the file and parses every line: the floor any loader pays. */
export async function parseFloor(file: string): Promise<{ seconds: number; cpuSeconds: number; lines: number }> {
  const started = process.hrtime.bigint();
  const cpuStarted = process.cpuUsage();
  let lines = 0;
  for await (const line of readLines(fileChunks(file))) {
    if (line.length === 0) continue;
    JSON.parse(line);
    lines++;
  }
  const cpu = process.cpuUsage(cpuStarted);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, cpuSeconds: (cpu.user + cpu.system) / 1e6, lines };
}

interface LoaderOut {
  seconds: number;
  searchIndexSeconds: number;
  cpuSeconds: number;
  items: number;
  generations: number;
  maxRssMB: number;
}

/** SQLite file bytes after a checkpoint, and bytes by table (indexes folded into their table). */
export function sqliteBytes(file: string): { total: number; tables: [string, number][] } {
  const db = new Database(file);
  db.pragma("wal_checkpoint(TRUNCATE)");
  const owners = new Map<string, string>();
  for (const r of db.prepare(`SELECT name, tbl_name FROM sqlite_master`).all() as { name: string; tbl_name: string }[])
    owners.set(r.name, r.tbl_name.replace(/^SearchPosting$/, "SearchPosting (search index)"));
  const by = new Map<string, number>();
  for (const r of db.prepare(`SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name`).all() as { name: string; bytes: number }[]) {
    const owner = owners.get(r.name) ?? r.name;
    by.set(owner, (by.get(owner) ?? 0) + r.bytes);
  }
  db.close();
  const total = fs.statSync(file).size + (fs.existsSync(file + "-wal") ? fs.statSync(file + "-wal").size : 0);
  return { total, tables: [...by].sort((a, b) => b[1] - a[1]) };
}

export async function pgBytes(url: string): Promise<{ total: number; tables: [string, number][] }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query("CHECKPOINT").catch(() => undefined);
  const r = await c.query<{ name: string; bytes: string }>(
    `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r'`,
  );
  await c.end();
  const tables = r.rows.map((x) => [x.name, Number(x.bytes)] as [string, number]).sort((a, b) => b[1] - a[1]);
  return { total: tables.reduce((t, x) => t + x[1], 0), tables };
}

export async function fileFigures(file: string, dir: string, pgAdmin: string | null, tag: string): Promise<FileFigures> {
  const floor = await parseFloor(file);
  const stores: StoreFigures[] = [];
  const db = path.join(dir, `file-${tag}.db`);
  const rm = (f: string) => [f, f + "-wal", f + "-shm"].forEach((x) => fs.rmSync(x, { force: true }));
  rm(db);
  try {
    const ours = await loaderChild<LoaderOut>("scripts/bench/load-worker.ts", ["file:" + db, file]);
    const bytes = sqliteBytes(db);
    const baseFile = path.join(dir, `file-${tag}-baseline.db`);
    const base = child<{ seconds: number; rows: number }>(["scripts/bench/baseline-sqlite.ts", db, baseFile]);
    rm(baseFile);
    stores.push(storeFigures("SQLite", ours, base, bytes));
  } finally {
    rm(db);
  }
  if (pgAdmin) {
    const loaded = await freshPgDatabase(pgAdmin, `stepwise_bench_file_${tag}`);
    const b = await freshPgDatabase(pgAdmin, `stepwise_bench_file_${tag}_base`);
    try {
      const ours = await loaderChild<LoaderOut>("scripts/bench/load-worker.ts", [loaded.url, file]);
      const bytes = await pgBytes(loaded.url);
      const base = child<{ seconds: number; rows: number }>(["scripts/bench/baseline-pg.ts", loaded.url, b.url]);
      stores.push(storeFigures("PostgreSQL", ours, base, bytes));
    } finally {
      await b.drop();
      await loaded.drop();
    }
  }
  return {
    file,
    fileBytes: fs.statSync(file).size,
    lines: floor.lines,
    parseSeconds: floor.seconds,
    parseCpuSeconds: floor.cpuSeconds,
    stores,
  };
}

export function storeFigures(
  provider: StoreFigures["provider"],
  ours: LoaderOut,
  base: { seconds: number; rows: number },
  bytes: { total: number; tables: [string, number][] },
): StoreFigures {
  return {
    provider,
    items: ours.items,
    generations: ours.generations,
    loadSeconds: ours.seconds,
    searchIndexSeconds: ours.searchIndexSeconds,
    cpuSeconds: ours.cpuSeconds,
    maxRssMB: ours.maxRssMB,
    baselineSeconds: base.seconds,
    baselineRows: base.rows,
    storeBytes: bytes.total,
    tables: bytes.tables,
  };
}

const mb = (n: number) => (n / 1e6).toFixed(1);

export function printFileFigures(f: FileFigures) {
  console.log(
    `\n### ${path.basename(f.file)}: ${mb(f.fileBytes)} MB, ${fmt(f.lines)} lines; parse floor ${f.parseSeconds.toFixed(2)} s (CPU ${f.parseCpuSeconds.toFixed(2)} s)`,
  );
  console.log(
    "\n| store | generations | load s (incl. search index) | ÷ parse floor (target ≤ 6) | load CPU s ÷ parse CPU s | raw-insert baseline s | ÷ baseline | peak RSS | store MB | ÷ file bytes (target SQLite ≤ 1.0, PostgreSQL ≤ 1.3) |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const s of f.stores) {
    const total = s.loadSeconds + s.searchIndexSeconds;
    console.log(
      `| ${s.provider} | ${fmt(s.generations)} | ${total.toFixed(1)} (${s.searchIndexSeconds.toFixed(1)}) | ${(total / f.parseSeconds).toFixed(1)} | ${s.cpuSeconds.toFixed(2)} ÷ ${f.parseCpuSeconds.toFixed(2)} = ${(s.cpuSeconds / f.parseCpuSeconds).toFixed(1)} | ${s.baselineSeconds.toFixed(1)} | ${(total / s.baselineSeconds).toFixed(2)} | ${fmt(s.maxRssMB)} MB | ${mb(s.storeBytes)} | ${(s.storeBytes / f.fileBytes).toFixed(2)} |`,
    );
  }
  for (const s of f.stores)
    console.log(
      `\n${s.provider} bytes by table (indexes included): ${s.tables
        .filter(([, b]) => b >= 50_000)
        .map(([t, b]) => `${t} ${mb(b)} MB`)
        .join(", ")}`,
    );
}
