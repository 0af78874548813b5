// `npm run bench`: the performance report. Prints figures, asserts nothing: these machines are
// shared and noisy, so every figure stands beside a baseline measured in the same run.
//   BENCH_ITEMS=100000[,800000]   procedural-arith items per load (lengths 5..95)
//   BENCH_PG=postgresql://… | off  PostgreSQL admin URL (default: the local server when it answers)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchLoad, printLoad, type LoadFigures } from "./bench/load";
import { pgReachable } from "./bench/util";

const sizes = (process.env.BENCH_ITEMS ?? "100000").split(",").map(Number);
const lengths = [5, 15, 25, 35, 45, 55, 65, 75, 85, 95];
const pgDefault = "postgresql://postgres@127.0.0.1:5432/test";
// BENCH_PG=off skips PostgreSQL.
const pgAdmin = process.env.BENCH_PG === "off" ? null : process.env.BENCH_PG ?? ((await pgReachable(pgDefault)) ? pgDefault : null);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-bench-"));

console.log(`# Stepwise benchmark — ${new Date().toISOString()}`);
console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);

const load: LoadFigures[] = [];
for (const items of sizes) {
  const file = path.join(dir, `bench-${items}.jsonl`);
  const t = Date.now();
  execFileSync(process.execPath, ["bin/stepwise.mjs", "generate", "--benchmark", "procedural-arith", "--lengths", lengths.join(","),
    "--items-per-length", String(Math.ceil(items / lengths.length)), "--seed", "7", "--simulate-p", "0.98",
    "--run-key", `bench-${items}`, "--model", "Sim-Bench", "--out", file]);
  console.log(`generated ${items} items: ${(fs.statSync(file).size / 1e6).toFixed(0)} MB in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  load.push(...(await benchLoad(file, dir, pgAdmin)));
  fs.rmSync(file, { force: true });
}
console.log("\n## Load (native JSONL, analysis included) vs the bulk-insert baseline (same rows, one transaction)");
printLoad(load);
console.log("ratio = our rows/s ÷ baseline rows/s (rows = items + generations + step results); target ≥ 0.40");
fs.rmSync(dir, { recursive: true, force: true });
