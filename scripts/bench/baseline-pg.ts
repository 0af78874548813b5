// Child process of scripts/bench.ts: the PostgreSQL baseline. Dumps the rows our loader wrote
// (item contents, items, generations, step results) with COPY TO (untimed), then times COPY FROM of those
// dumps into a fresh database with the same schema, in one transaction: the fastest bulk path
// (the binary format, as our loader writes it: the server reads each field as its length and bytes).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { listMigrations } from "../../lib/store/migrate";

const [sourceUrl, targetUrl] = process.argv.slice(2);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-pgdump-"));
const src = new pg.Client({ connectionString: sourceUrl });
await src.connect();
// The bulk tables our loader writes (StepResult only in stores made before migration 0009, ItemContent only after 0014).
const tables = (
  await src.query<{ t: string }>(
    `SELECT t FROM unnest(ARRAY['ItemContent', 'Item', 'Generation', 'StepResult']) t WHERE to_regclass(format('%I', t)) IS NOT NULL`,
  )
).rows.map((r) => r.t);
const counts: Record<string, number> = {};
for (const t of tables) {
  await pipeline(src.query(copyTo(`COPY "${t}" TO STDOUT WITH (FORMAT binary)`)), fs.createWriteStream(path.join(dir, t)));
  counts[t] = Number((await src.query(`SELECT count(*) AS n FROM "${t}"`)).rows[0].n);
}
const runs = (await src.query(`SELECT id, key FROM "Run"`)).rows;
await src.end();

const dst = new pg.Client({ connectionString: targetUrl });
await dst.connect();
for (const m of listMigrations("postgres")) await dst.query(m.sql);
await dst.query(`INSERT INTO "Model" (id, name) VALUES (1, 'm'); INSERT INTO "Benchmark" (id, name) VALUES (1, 'b');
  INSERT INTO "Variant" (id, "benchmarkId", name, params) VALUES (1, 1, 'v', '{}')`);
for (const r of runs)
  await dst.query(
    `INSERT INTO "Run" (id, key, "modelId", "variantId", benchmark, config, source, "variantJson", "itemCount", "generationCount", "maxLength", "hasSteps", metrics, extras)
    VALUES ($1, $2, 1, 1, 'b', '{}', '{}', '{}', 0, 0, 0, false, '{}', '{}')`,
    [r.id, r.key],
  );
const started = process.hrtime.bigint();
await dst.query("BEGIN");
for (const t of tables)
  await pipeline(fs.createReadStream(path.join(dir, t)), dst.query(copyFrom(`COPY "${t}" FROM STDIN WITH (FORMAT binary)`)));
await dst.query("COMMIT");
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
await dst.end();
fs.rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ seconds, rows: Object.values(counts).reduce((t, n) => t + n, 0), counts }));
