// Child process of scripts/bench.ts: the baseline. Copies the rows our loader wrote (items,
// generations, step results) into a fresh store with better-sqlite3 directly: one
// transaction, prepared statements, nothing else. Only the inserts are timed.
import Database from "better-sqlite3";
import fs from "node:fs";
import { listMigrations } from "../../lib/store/migrate";

const [source, target] = process.argv.slice(2);
const src = new Database(source, { readonly: true });
const tables = ["Item", "Generation", "StepResult"] as const;
const rows = Object.fromEntries(tables.map((t) => [t, src.prepare(`SELECT * FROM "${t}"`).raw().all() as unknown[][]]));
const columns = Object.fromEntries(tables.map((t) => [t, src.prepare(`SELECT * FROM "${t}" LIMIT 1`).columns().map((c) => c.name)]));
const runs = src.prepare(`SELECT * FROM "Run"`).all() as Record<string, unknown>[];
src.close();

fs.rmSync(target, { force: true });
const db = new Database(target);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
for (const m of listMigrations("sqlite")) db.exec(m.sql);
db.exec(`INSERT INTO "Model" (id, name) VALUES (1, 'm'); INSERT INTO "Benchmark" (id, name) VALUES (1, 'b');
  INSERT INTO "Variant" (id, "benchmarkId", name, params) VALUES (1, 1, 'v', '{}');`);
const runInsert = db.prepare(`INSERT INTO "Run" (id, key, "modelId", "variantId", benchmark, config, source, "variantJson", "itemCount", "generationCount", "maxLength", "hasSteps", metrics, extras) VALUES (?, ?, 1, 1, 'b', '{}', '{}', '{}', 0, 0, 0, 0, '{}', '{}')`);
for (const r of runs) runInsert.run(r.id, r.key);

const started = process.hrtime.bigint();
db.transaction(() => {
  for (const t of tables) {
    const cols = columns[t];
    const stmt = db.prepare(`INSERT INTO "${t}" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`);
    for (const row of rows[t]) stmt.run(...row);
  }
})();
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
db.close();
const counts = Object.fromEntries(tables.map((t) => [t, rows[t].length]));
console.log(JSON.stringify({ seconds, rows: counts.Item + counts.Generation + counts.StepResult, counts }));
