import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

// Peak memory of `stepwise ingest` on a ~1 GB native file, run exactly as a user runs it
// (node bin/stepwise.mjs, default options). Peak RSS is the kernel's high-water mark of the
// process (VmHWM), read until it exits: it counts both threads, V8's heaps and native memory.

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
  file: string,
  how: { label: string; args: string[] }[],
): Promise<MemoryFigures[]> {
  if (!fs.existsSync(file) || fs.statSync(file).size === 0) {
    cli([
      "generate",
      "--benchmark",
      "procedural-arith",
      "--lengths",
      "5,15,25,35,45,55,65,75,85,95",
      "--items-per-length",
      String(ITEMS_1GB / 10),
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
      items: ITEMS_1GB,
      seconds: (Date.now() - started) / 1000,
      peakRssMB: peak,
    });
    for (const f of [db, db + "-wal", db + "-shm"]) fs.rmSync(f, { force: true });
  }
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
  console.log("target: peak RSS ≤ 400 MB loading a 1 GB file");
}
