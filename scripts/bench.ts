// `npm run bench`: the performance report. Prints figures, asserts nothing: these machines
// are shared and noisy, so every figure stands beside a baseline measured in the same run.
//   BENCH_ITEMS=100000 (default) items of procedural-arith, lengths 5..95.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const items = Number(process.env.BENCH_ITEMS ?? 100_000);
const lengths = [5, 15, 25, 35, 45, 55, 65, 75, 85, 95];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-bench-"));
const node = (args: string[]) => execFileSync(process.execPath, ["--import", "tsx", ...args], { encoding: "utf8", maxBuffer: 1 << 26 }).trim();
const last = (out: string) => JSON.parse(out.split("\n").pop()!);

console.log(`Stepwise benchmark · ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"} · ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB · node ${process.version}`);
const file = path.join(dir, "bench.jsonl");
let t = Date.now();
node(["bin/stepwise.mjs", "generate", "--benchmark", "procedural-arith", "--lengths", lengths.join(","), "--items-per-length",
  String(Math.ceil(items / lengths.length)), "--seed", "7", "--simulate-p", "0.98", "--run-key", "bench", "--model", "Sim-Bench", "--out", file]);
console.log(`generated ${file}: ${(fs.statSync(file).size / 1e6).toFixed(0)} MB in ${((Date.now() - t) / 1000).toFixed(1)}s`);

const db = path.join(dir, "load.db");
const ours = last(node(["scripts/bench/load-worker.ts", "file:" + db, file]));
const base = last(node(["scripts/bench/baseline-sqlite.ts", db, path.join(dir, "baseline.db")]));
const ourRows = ours.items + ours.generations + ours.steps;

const row = (name: string, secs: number, rows: number, extra = "") =>
  console.log(`${name.padEnd(34)} ${secs.toFixed(2).padStart(8)} s ${Math.round(rows / secs).toLocaleString("en").padStart(12)} rows/s ${extra}`);
console.log("\nLoad (SQLite)                         time        throughput");
row("stepwise ingest (analysis incl.)", ours.seconds, ourRows,
  `· ${Math.round(ours.steps / ours.seconds).toLocaleString("en")} steps/s · ${Math.round(ours.items / ours.seconds).toLocaleString("en")} items/s · peak RSS ${ours.maxRssMB.toFixed(0)} MB`);
row("baseline: better-sqlite3, 1 txn", base.seconds, base.rows);
console.log(`ratio (ours ÷ baseline rows/s): ${((ourRows / ours.seconds) / (base.rows / base.seconds)).toFixed(2)}`);
fs.rmSync(dir, { recursive: true, force: true });
