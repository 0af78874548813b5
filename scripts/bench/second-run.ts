// `npx tsx scripts/bench/second-run.ts FIRST.jsonl SECOND.jsonl`: the store bytes a second run
// adds when it is loaded after a first one (two models over the same items share the items'
// contents), on SQLite and (when it answers; BENCH_PG=off skips) PostgreSQL, by table.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openStore } from "../../lib/db";
import { loadNative } from "../../lib/store/load";
import { indexPendingRuns } from "../../lib/store/search-index";
import { pgBytes, sqliteBytes } from "./file-figures";
import { freshPgDatabase, pgReachable } from "./util";

const [first, second] = process.argv.slice(2);
if (!first || !second || !fs.existsSync(first) || !fs.existsSync(second)) {
  console.error("usage: npx tsx scripts/bench/second-run.ts FIRST.jsonl SECOND.jsonl");
  process.exit(2);
}
const pgDefault = "postgresql://postgres@127.0.0.1:5432/test";
const pgAdmin = process.env.BENCH_PG === "off" ? null : (process.env.BENCH_PG ?? ((await pgReachable(pgDefault)) ? pgDefault : null));
const mb = (n: number) => (n / 1e6).toFixed(1);
type Bytes = { total: number; tables: [string, number][] };

async function load(url: string, file: string) {
  const store = await openStore(url);
  try {
    const r = await loadNative(store, file, fs.createReadStream(file, { highWaterMark: 1 << 20 }));
    if (!r.ok) throw new Error(`${file}: ${r.errors.length} error(s)`);
    await indexPendingRuns(store.raw);
  } finally {
    await store.close();
  }
}

function print(provider: string, a: Bytes, b: Bytes) {
  const before = new Map(a.tables);
  const added = b.tables.map(([t, n]) => [t, n - (before.get(t) ?? 0)] as const).filter(([, n]) => Math.abs(n) >= 50_000);
  const size = fs.statSync(second).size;
  console.log(
    `| ${provider} | ${mb(a.total)} | ${mb(b.total - a.total)} | ${((b.total - a.total) / size).toFixed(2)} | ${added.map(([t, n]) => `${t} ${mb(n)}`).join(", ")} |`,
  );
}

console.log(`\n${path.basename(first)} then ${path.basename(second)} (${mb(fs.statSync(second).size)} MB)\n`);
console.log("| store | first run's store MB | second run adds MB | ÷ second file | added by table (MB, indexes included) |");
console.log("|---|---:|---:|---:|---|");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-bench-second-"));
try {
  const db = path.join(dir, "two.db");
  await load("file:" + db, first);
  const a = sqliteBytes(db);
  await load("file:" + db, second);
  print("SQLite", a, sqliteBytes(db));
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
if (pgAdmin) {
  const d = await freshPgDatabase(pgAdmin, `stepwise_bench_second_${process.pid}`);
  try {
    await load(d.url, first);
    const a = await pgBytes(d.url);
    await load(d.url, second);
    print("PostgreSQL", a, await pgBytes(d.url));
  } finally {
    await d.drop();
  }
}
