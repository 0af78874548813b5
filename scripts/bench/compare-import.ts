// `npm run bench:import -- [FILE…] [--rounds N]`: each importable file's `stepwise import` beside
// `stepwise ingest` of the native export of the run it made (scripts/bench/import-figures.ts),
// on SQLite and (when it answers, or BENCH_PG names it; BENCH_PG=off skips) PostgreSQL.
// Without files: a generated 10,000-sample Inspect `.eval` (zstd) and a measuring-execution
// eval_step_results.json (2,000 instances × 50 turns), kept in BENCH_DIR (default data/bench)
// and reused. `--rounds N` times each pair N times, alternating (the median ratio and its
// range: single rounds of the same code moved by 0.45 here). BENCH_IMPORT_SAMPLES sets the
// Inspect log's size. BENCH_IMPORT_BASELINE=DIR also times the import by another checkout's
// CLI (an earlier commit, node_modules linked in).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { importFigures, printImportFigures, type ImportFigures } from "./import-figures";
import { benchImportFiles } from "./import-files";
import { pgReachable } from "./util";

const pgDefault = "postgresql://postgres@127.0.0.1:5432/test";
const pgAdmin = process.env.BENCH_PG === "off" ? null : (process.env.BENCH_PG ?? ((await pgReachable(pgDefault)) ? pgDefault : null));
const dir = path.resolve(process.env.BENCH_DIR ?? "data/bench");
fs.mkdirSync(dir, { recursive: true });
const args = process.argv.slice(2);
const roundsAt = args.indexOf("--rounds");
const rounds = roundsAt >= 0 ? Math.max(1, Number(args.splice(roundsAt, 2)[1])) : 1;
const files = args.length ? args : benchImportFiles(dir, Number(process.env.BENCH_IMPORT_SAMPLES ?? 10000));
console.log(
  `# importers beside the native loader — ${new Date().toISOString()}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
const rows: ImportFigures[] = [];
for (const f of files) {
  if (!fs.existsSync(f)) throw new Error(`${f}: no such file`);
  rows.push(
    ...(await importFigures(
      path.resolve(f),
      dir,
      pgAdmin,
      process.env.BENCH_IMPORT_BASELINE && path.resolve(process.env.BENCH_IMPORT_BASELINE),
      rounds,
    )),
  );
}
printImportFigures(rows);
