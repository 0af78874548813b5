import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { percentile } from "../../lib/analysis/stats";
import { parseFloor } from "./parse-floor";
import { child, fmt, freshParseFloor, freshPgDatabase, loaderChild } from "./util";

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
  /** the parse floor in a fresh process of its own, as each load runs (median of the rounds) */
  parseFreshSeconds: number;
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
  /**
   * With several rounds (`npm run bench:file -- FILE --rounds N`): each round's parse floor,
   * measured right before its load, and the load; the figures above are the last round's, the
   * ratios printed are the rounds' medians.
   */
  rounds?: RoundFigures[];
  /** tables + indexes + search index (+ WAL after a checkpoint, SQLite) */
  storeBytes: number;
  /** bytes by table (its indexes included), largest first */
  tables: [string, number][];
}

export interface RoundFigures {
  floorSeconds: number;
  floorCpuSeconds: number;
  /** the floor in a fresh process (scripts/bench/parse-floor-worker.ts), measured right before the load */
  freshFloorSeconds: number;
  loadSeconds: number;
  cpuSeconds: number;
  /** a local PostgreSQL server's CPU during the load (scripts/bench/server-cpu.ts); null elsewhere */
  serverCpuSeconds: number | null;
  /** the load's start (to its first event) and its end (from its last generation's event to its return) */
  startSeconds: number;
  endSeconds: number;
  /** SQLite: from the load's return to the end of its checkpoint, which runs on a thread of its own (0: none) */
  checkpointSeconds: number;
}

interface LoaderOut {
  seconds: number;
  searchIndexSeconds: number;
  cpuSeconds: number;
  serverCpuSeconds: number | null;
  startSeconds: number;
  endSeconds: number;
  checkpointSeconds: number;
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

/**
 * The file's figures on SQLite and (pgAdmin given) PostgreSQL. With `rounds` > 1 each store is
 * loaded that many times into a fresh store, each load right after a parse floor of its own: on
 * a shared machine the floor moves by a third within an hour, and a ratio to a floor measured
 * minutes apart says as much about the neighbours as about the load.
 */
export async function fileFigures(file: string, dir: string, pgAdmin: string | null, tag: string, rounds = 1): Promise<FileFigures> {
  const floors: Awaited<ReturnType<typeof parseFloor>>[] = [];
  const freshFloors: number[] = [];
  // each round: a floor, then a load into the fresh store `fresh()` gives; the last round's store is kept
  const loadRounds = async (fresh: () => Promise<string>): Promise<{ ours: LoaderOut; url: string; rounds: RoundFigures[] }> => {
    const out: RoundFigures[] = [];
    let last: { ours: LoaderOut; url: string } | null = null;
    for (let r = 0; r < rounds; r++) {
      const floor = await parseFloor(file);
      floors.push(floor);
      const freshFloor = await freshParseFloor(file);
      freshFloors.push(freshFloor.seconds);
      const url = await fresh();
      const ours = await loaderChild<LoaderOut>("scripts/bench/load-worker.ts", [url, file]);
      out.push({
        floorSeconds: floor.seconds,
        floorCpuSeconds: floor.cpuSeconds,
        freshFloorSeconds: freshFloor.seconds,
        loadSeconds: ours.seconds + ours.searchIndexSeconds,
        cpuSeconds: ours.cpuSeconds,
        serverCpuSeconds: ours.serverCpuSeconds,
        startSeconds: ours.startSeconds,
        endSeconds: ours.endSeconds,
        checkpointSeconds: ours.checkpointSeconds,
      });
      last = { ours, url };
    }
    return { ...last!, rounds: out };
  };
  const stores: StoreFigures[] = [];
  const db = path.join(dir, `file-${tag}.db`);
  const rm = (f: string) => [f, f + "-wal", f + "-shm"].forEach((x) => fs.rmSync(x, { force: true }));
  rm(db);
  try {
    const { ours, rounds: r } = await loadRounds(async () => (rm(db), "file:" + db));
    const bytes = sqliteBytes(db);
    const baseFile = path.join(dir, `file-${tag}-baseline.db`);
    const base = child<{ seconds: number; rows: number }>(["scripts/bench/baseline-sqlite.ts", db, baseFile]);
    rm(baseFile);
    stores.push({ ...storeFigures("SQLite", ours, base, bytes), rounds: r });
  } finally {
    rm(db);
  }
  if (pgAdmin) {
    const name = `stepwise_bench_file_${tag}`;
    // the database of the round being loaded (a fresh one each round)
    const current: { db: Awaited<ReturnType<typeof freshPgDatabase>> | null } = { db: null };
    const b = await freshPgDatabase(pgAdmin, `${name}_base`);
    try {
      const {
        ours,
        url,
        rounds: r,
      } = await loadRounds(async () => {
        await current.db?.drop();
        current.db = await freshPgDatabase(pgAdmin, name);
        return current.db.url;
      });
      const bytes = await pgBytes(url);
      const base = child<{ seconds: number; rows: number }>(["scripts/bench/baseline-pg.ts", url, b.url]);
      stores.push({ ...storeFigures("PostgreSQL", ours, base, bytes), rounds: r });
    } finally {
      await b.drop();
      await current.db?.drop();
    }
  }
  return {
    file,
    fileBytes: fs.statSync(file).size,
    lines: floors[0].lines,
    parseSeconds: median(floors.map((f) => f.seconds)),
    parseCpuSeconds: median(floors.map((f) => f.cpuSeconds)),
    parseFreshSeconds: median(freshFloors),
    stores,
  };
}

const median = (xs: number[]): number => percentile(xs, 0.5);
/** "median (least–most)" of the rounds' figures */
const spread = (xs: number[], digits: number) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

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
    `\n### ${path.basename(f.file)}: ${mb(f.fileBytes)} MB, ${fmt(f.lines)} lines; parse floor ${f.parseSeconds.toFixed(2)} s (CPU ${f.parseCpuSeconds.toFixed(2)} s); in a fresh process, as each load runs, ${f.parseFreshSeconds.toFixed(2)} s`,
  );
  console.log(
    "\n| store | generations | load s (incl. search index) | ÷ parse floor (target ≤ 6) | ÷ floor in a fresh process | load CPU s ÷ parse CPU s | raw-insert baseline s | ÷ baseline | peak RSS | store MB | ÷ file bytes (target SQLite ≤ 1.0, PostgreSQL ≤ 1.3) |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const s of f.stores) {
    const total = s.loadSeconds + s.searchIndexSeconds;
    const several = s.rounds && s.rounds.length > 1 ? s.rounds : null;
    // several rounds: medians, and the range over the rounds, each load against the floor measured right before it
    const load = several
      ? spread(
          several.map((r) => r.loadSeconds),
          1,
        )
      : `${total.toFixed(1)} (${s.searchIndexSeconds.toFixed(1)})`;
    // the load against a floor: each round's against its own, or the one load against the file's
    const vsFloor = (roundFloor: (r: RoundFigures) => number, fileFloor: number) =>
      several
        ? spread(
            several.map((r) => r.loadSeconds / roundFloor(r)),
            1,
          )
        : (total / fileFloor).toFixed(1);
    const ratio = vsFloor((r) => r.floorSeconds, f.parseSeconds);
    const freshRatio = vsFloor((r) => r.freshFloorSeconds, f.parseFreshSeconds);
    const cpu = several
      ? spread(
          several.map((r) => r.cpuSeconds / r.floorCpuSeconds),
          1,
        )
      : `${s.cpuSeconds.toFixed(2)} ÷ ${f.parseCpuSeconds.toFixed(2)} = ${(s.cpuSeconds / f.parseCpuSeconds).toFixed(1)}`;
    console.log(
      `| ${s.provider} | ${fmt(s.generations)} | ${load} | ${ratio} | ${freshRatio} | ${cpu} | ${s.baselineSeconds.toFixed(1)} | ${(total / s.baselineSeconds).toFixed(2)} | ${fmt(s.maxRssMB)} MB | ${mb(s.storeBytes)} | ${(s.storeBytes / f.fileBytes).toFixed(2)} |`,
    );
  }
  for (const s of f.stores)
    if (s.rounds && s.rounds.length > 1)
      console.log(
        `\n${s.provider}, each round (floor s, in a fresh process s → load s = ratios): ${s.rounds.map((r) => `${r.floorSeconds.toFixed(2)}, ${r.freshFloorSeconds.toFixed(2)} → ${r.loadSeconds.toFixed(1)} = ${(r.loadSeconds / r.floorSeconds).toFixed(1)}, ${(r.loadSeconds / r.freshFloorSeconds).toFixed(1)}`).join("; ")}`,
      );
  for (const s of f.stores)
    if (s.rounds?.length)
      console.log(
        `\n${s.provider}, each round's start (to the first event) + end (from the last generation's event to the commit and statistics): ${s.rounds.map((r) => `${r.startSeconds.toFixed(2)} + ${r.endSeconds.toFixed(2)} s`).join("; ")}; together ${median(s.rounds.map((r) => (r.startSeconds + r.endSeconds) / r.floorSeconds)).toFixed(1)}× the floor (median)${s.rounds.some((r) => r.checkpointSeconds > 0) ? `; then the checkpoint on a thread of its own: ${s.rounds.map((r) => r.checkpointSeconds.toFixed(2)).join("; ")} s (load and checkpoint ÷ floor, median: ${median(s.rounds.map((r) => (r.loadSeconds + r.checkpointSeconds) / r.floorSeconds)).toFixed(1)})` : ""}`,
      );
  for (const s of f.stores) {
    const withServer = s.rounds?.filter((r) => r.serverCpuSeconds !== null) ?? [];
    if (withServer.length === 0) continue;
    // our two threads and the server share the machine's cores: how many they kept busy
    const busy = withServer.map((r) => (r.cpuSeconds + r.serverCpuSeconds!) / r.loadSeconds);
    console.log(
      `\n${s.provider}'s server, CPU s during each load: ${withServer.map((r) => r.serverCpuSeconds!.toFixed(2)).join("; ")}; with our process's, ${median(busy).toFixed(2)} cores busy (median) of ${os.availableParallelism()}`,
    );
  }
  for (const s of f.stores) {
    if (!s.rounds?.length) continue;
    // both of our threads are busy from the first line to the last: however the work is
    // scheduled, it cannot take less than all of its CPU spread over every core
    const cores = os.availableParallelism();
    const work = s.rounds.map((r) => r.cpuSeconds + (r.serverCpuSeconds ?? 0));
    const bound = s.rounds.map((r, i) => work[i] / cores / r.floorSeconds);
    const cut = median(s.rounds.map((r, i) => 1 - (6 * r.floorSeconds * cores) / work[i]));
    const measured = s.rounds.every((r) => r.serverCpuSeconds !== null);
    const server = s.provider === "SQLite" ? "" : measured ? " + the server's" : " (the server's not measured)";
    console.log(
      `\n${s.provider}, the least this work can take on ${cores} cores: (our CPU${server}) ÷ ${cores} = ${spread(bound, 1)}× the floor, median (range); ≤ 6× needs ${cut > 0 ? `${(cut * 100).toFixed(0)}% less CPU` : "no less CPU, only the cores kept busy"}`,
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
