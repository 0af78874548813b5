// Child process of scripts/bench.ts: the baseline. Copies the rows our loader wrote (items,
// generations, step results) into a fresh store with better-sqlite3 directly: one
// transaction, prepared statements, nothing else. Rows are read in chunks (untimed) so that
// 40 million step rows never sit in memory; only the inserts are timed.
import Database from "better-sqlite3";
import fs from "node:fs";
import { listMigrations } from "../../lib/store/migrate";
import { openSqliteDatabase } from "../../lib/store/raw";

const CHUNK = 200_000;
const [source, target] = process.argv.slice(2);
const src = new Database(source, { readonly: true });
// The bulk tables our loader writes (StepResult only in stores made before migration 0009, ItemContent only after 0014).
const tables = ["ItemContent", "Item", "Generation", "StepResult"].filter((t) =>
  src.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(t),
);
const runs = src.prepare(`SELECT * FROM "Run"`).all() as Record<string, unknown>[];

fs.rmSync(target, { force: true });
// as the app opens a store: its page size, WAL, and the SQL functions migrations call
const db = openSqliteDatabase("file:" + target);
for (const m of listMigrations("sqlite")) db.exec(m.sql);
db.exec(`INSERT INTO "Model" (id, name) VALUES (1, 'm'); INSERT INTO "Benchmark" (id, name) VALUES (1, 'b');
  INSERT INTO "Variant" (id, "benchmarkId", name, params) VALUES (1, 1, 'v', '{}');`);
const runInsert = db.prepare(
  `INSERT INTO "Run" (id, key, "modelId", "variantId", benchmark, config, source, "variantJson", "itemCount", "generationCount", "maxLength", "hasSteps", metrics, extras) VALUES (?, ?, 1, 1, 'b', '{}', '{}', '{}', 0, 0, 0, 0, '{}', '{}')`,
);
for (const r of runs) runInsert.run(r.id, r.key);
// Search indexes maintained by triggers would make the baseline do more than plain inserts.
for (const { name } of db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger'`).all() as { name: string }[])
  db.exec(`DROP TRIGGER "${name}"`);

let seconds = 0;
const counts: Record<string, number> = {};
db.exec("BEGIN");
for (const t of tables) {
  const cols = src
    .prepare(`SELECT * FROM "${t}" LIMIT 1`)
    .columns()
    .map((c) => c.name);
  const read = src.prepare(`SELECT * FROM "${t}" WHERE rowid > ? ORDER BY rowid LIMIT ${CHUNK}`).raw();
  const lastRowid = src.prepare(`SELECT rowid FROM "${t}" WHERE rowid > ? ORDER BY rowid LIMIT 1 OFFSET ${CHUNK - 1}`).pluck();
  const stmt = db.prepare(`INSERT INTO "${t}" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`);
  counts[t] = 0;
  let after = -Infinity;
  for (;;) {
    const rows = read.all(after) as unknown[][];
    if (rows.length === 0) break;
    const next = (lastRowid.get(after) as number | undefined) ?? Infinity;
    const started = process.hrtime.bigint();
    for (const row of rows) stmt.run(...row);
    seconds += Number(process.hrtime.bigint() - started) / 1e9;
    counts[t] += rows.length;
    if (rows.length < CHUNK) break;
    after = next;
  }
}
const started = process.hrtime.bigint();
db.exec("COMMIT");
seconds += Number(process.hrtime.bigint() - started) / 1e9;
db.close();
src.close();
console.log(JSON.stringify({ seconds, rows: Object.values(counts).reduce((t, n) => t + n, 0), counts }));
