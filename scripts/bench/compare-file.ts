// `npm run bench:file -- FILE [--rounds N]`: one native JSONL file's load beside the parse floor
// and the raw-insert baseline, and the store's bytes beside the file's, on SQLite and (when it
// answers, or BENCH_PG names it; BENCH_PG=off skips) PostgreSQL. With N rounds each store is
// loaded N times, each load right after its own parse floor; the ratios are the medians.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileFigures, printFileFigures } from "./file-figures";
import { pgReachable } from "./util";

const [file, ...opts] = process.argv.slice(2);
const roundsAt = opts.indexOf("--rounds");
const rounds = roundsAt >= 0 ? Number(opts[roundsAt + 1]) : 1;
if (!file || !fs.existsSync(file) || !Number.isInteger(rounds) || rounds < 1) {
  console.error("usage: npm run bench:file -- FILE.jsonl [--rounds N]");
  process.exit(2);
}
const pgDefault = "postgresql://postgres@127.0.0.1:5432/test";
const pgAdmin = process.env.BENCH_PG === "off" ? null : (process.env.BENCH_PG ?? ((await pgReachable(pgDefault)) ? pgDefault : null));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-bench-file-"));
try {
  printFileFigures(await fileFigures(path.resolve(file), dir, pgAdmin, String(process.pid), rounds));
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
