import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

// Peak memory of `stepwise ingest` on a native file of one run (~1 GB by default), run exactly
// as a user runs it (node bin/stepwise.mjs, default options). Peak RSS is the kernel's
// high-water mark of the process (VmHWM), read until it exits: it counts both threads, V8's
// heaps and native memory. Two sizes (BENCH_MEMORY_ITEMS) show how it grows with a run.

export interface MemoryFigures {
  how: string;
  fileMB: number;
  items: number;
  seconds: number;
  peakRssMB: number;
}

/** Items of procedural-arith at lengths 5..95 that make a ~1.02 GB file (3.9 kB per line). */
export const ITEMS_1GB = 260_000;

export async function benchMemory(
  cli: (args: string[]) => void,
  dir: string,
  items: number,
  how: { label: string; args: string[] }[],
): Promise<MemoryFigures[]> {
  const file = path.join(dir, `memory-${items}.jsonl`);
  if (!fs.existsSync(file) || fs.statSync(file).size === 0) {
    cli([
      "generate",
      "--benchmark",
      "procedural-arith",
      "--lengths",
      "5,15,25,35,45,55,65,75,85,95",
      "--items-per-length",
      String(Math.ceil(items / 10)),
      "--seed",
      "7",
      "--simulate-p",
      "0.98",
      "--run-key",
      "bench-memory",
      "--model",
      "Sim-bench-memory",
      "--out",
      file,
    ]);
  }
  const out: MemoryFigures[] = [];
  for (const h of how) {
    const db = path.join(dir, "memory.db");
    for (const f of [db, db + "-wal", db + "-shm"]) fs.rmSync(f, { force: true });
    const started = Date.now();
    const peak = await peakRss(process.execPath, ["bin/stepwise.mjs", "ingest", ...h.args, file], {
      ...process.env,
      DATABASE_URL: "file:" + db,
    });
    out.push({
      how: h.label,
      fileMB: fs.statSync(file).size / 1e6,
      items: Math.ceil(items / 10) * 10,
      seconds: (Date.now() - started) / 1000,
      peakRssMB: peak,
    });
    for (const f of [db, db + "-wal", db + "-shm"]) fs.rmSync(f, { force: true });
  }
  if (!process.env.BENCH_DIR) fs.rmSync(file, { force: true });
  return out;
}

function peakRss(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ["ignore", "ignore", "inherit"] });
    let hwm = 0;
    const read = () => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (m) hwm = Math.max(hwm, Number(m[1]) / 1024);
      } catch {
        // exited between two reads: the last reading stands
      }
    };
    const timer = setInterval(read, 50);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearInterval(timer);
      if (code !== 0) reject(new Error(`${args.join(" ")}: exit code ${code}`));
      else resolve(hwm);
    });
  });
}

export function printMemory(rows: MemoryFigures[]) {
  console.log("\n| how | file | items | wall s | peak RSS |");
  console.log("|---|---:|---:|---:|---:|");
  for (const r of rows)
    console.log(
      `| ${r.how} | ${(r.fileMB / 1000).toFixed(2)} GB | ${r.items.toLocaleString("en")} | ${r.seconds.toFixed(1)} | ${Math.round(r.peakRssMB)} MB |`,
    );
  const twoThreads = rows.filter((r) => r.how === rows[0].how);
  if (twoThreads.length > 1) {
    const [a, b] = [twoThreads[0], twoThreads[twoThreads.length - 1]];
    console.log(
      `\ngrowth (${a.how}): ${((b.peakRssMB - a.peakRssMB) / ((b.items - a.items) / 1e6)).toFixed(1)} MB per million items of one run`,
    );
  }
  console.log("target: peak RSS ≤ 300 MB loading a file of any size");
}
