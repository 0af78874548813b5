import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freshPgDatabase } from "./util";

// An importer beside the native loader, for the same results: `stepwise import FILE` into a
// fresh store, then `stepwise export` of the run it made (untimed) and `stepwise ingest` of
// that native file into another fresh store. Both run as a user runs them (node
// bin/stepwise.mjs, default options) under /usr/bin/time: wall, CPU (user + system, every
// thread) and peak RSS of the process. Used by `npm run bench:import` and `npm run bench`.
// `baseline`: another checkout (an earlier commit, with node_modules) whose `stepwise import`
// of the same file is timed in the same run, for a before/after under the same load.

export interface ImportFigures {
  file: string;
  format: string;
  fileBytes: number;
  provider: "SQLite" | "PostgreSQL";
  generations: number;
  import: Timed;
  ingest: Timed;
  /** the same import by the baseline checkout's CLI */
  before: Timed | null;
  nativeBytes: number;
  /** import ÷ ingest of each round, wall and CPU (`import` and `ingest` are the round of the median wall ratio) */
  ratios: { wall: number; cpu: number }[];
}

interface Timed {
  seconds: number;
  cpuSeconds: number;
  peakRssMB: number;
}

/** Runs the CLI under /usr/bin/time; returns its figures and stdout. */
function timedCli(args: string[], env: Record<string, string>, checkout = "."): Timed & { stdout: string } {
  const fmtFile = `${process.env.TMPDIR ?? "/tmp"}/stepwise-time-${process.pid}`;
  try {
    const stdout = execFileSync("/usr/bin/time", ["-f", "%e %U %S %M", "-o", fmtFile, process.execPath, "bin/stepwise.mjs", ...args], {
      cwd: checkout, // a checkout reads its own migrations
      env: { ...process.env, ...env },
      encoding: "utf8",
      maxBuffer: 1 << 26,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const [e, u, s, m] = fs.readFileSync(fmtFile, "utf8").trim().split("\n").pop()!.split(" ").map(Number);
    return { seconds: e, cpuSeconds: u + s, peakRssMB: m / 1024, stdout };
  } finally {
    fs.rmSync(fmtFile, { force: true });
  }
}

function cli(args: string[], env: Record<string, string>, out?: string) {
  execFileSync(process.execPath, ["bin/stepwise.mjs", ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", out ? fs.openSync(out, "w") : "ignore", "inherit"],
  });
}

async function storeUrl(provider: "SQLite" | "PostgreSQL", dir: string, name: string, pgAdmin: string | null) {
  if (provider === "SQLite") {
    const db = path.join(dir, `${name}.db`);
    for (const f of [db, db + "-wal", db + "-shm"]) fs.rmSync(f, { force: true });
    return { url: "file:" + db, drop: async () => [db, db + "-wal", db + "-shm"].forEach((f) => fs.rmSync(f, { force: true })) };
  }
  return freshPgDatabase(pgAdmin!, `stepwise_bench_import_${name}_${process.pid}`);
}

/**
 * One importable file on SQLite (and PostgreSQL when pgAdmin names a server); `rounds` times
 * each, the import and the ingest alternating, each into fresh stores.
 */
export async function importFigures(
  file: string,
  dir: string,
  pgAdmin: string | null,
  baseline?: string,
  rounds = 1,
): Promise<ImportFigures[]> {
  const out: ImportFigures[] = [];
  const providers: ("SQLite" | "PostgreSQL")[] = pgAdmin ? ["SQLite", "PostgreSQL"] : ["SQLite"];
  for (const provider of providers) {
    const native = path.join(dir, "imported-export.jsonl");
    try {
      let r: { format: string; ok: boolean; runs: { key: string }[]; generations: number } | undefined;
      const timed: { import: Timed; ingest: Timed }[] = [];
      for (let k = 0; k < rounds; k++) {
        const a = await storeUrl(provider, dir, "import", pgAdmin);
        const b = await storeUrl(provider, dir, "ingest", pgAdmin);
        try {
          const imp = timedCli(["import", "--json", file], { DATABASE_URL: a.url });
          r = (JSON.parse(imp.stdout) as NonNullable<typeof r>[])[0];
          if (!r?.ok) throw new Error(`${file}: the import failed`);
          if (k === 0) cli(["export", "--run", r.runs[0].key], { DATABASE_URL: a.url }, native);
          timed.push({ import: imp, ingest: timedCli(["ingest", native], { DATABASE_URL: b.url }) });
        } finally {
          await a.drop();
          await b.drop();
        }
      }
      const ratios = timed.map((t) => ({ wall: t.import.seconds / t.ingest.seconds, cpu: t.import.cpuSeconds / t.ingest.cpuSeconds }));
      const median = timed[[...ratios.keys()].sort((x, y) => ratios[x].wall - ratios[y].wall)[(rounds - 1) >> 1]];
      let before: Timed | null = null;
      if (baseline) {
        const c = await storeUrl(provider, dir, "before", pgAdmin);
        try {
          before = timedCli(["import", file], { DATABASE_URL: c.url }, baseline);
        } finally {
          await c.drop();
        }
      }
      out.push({
        file,
        format: r!.format,
        fileBytes: fs.statSync(file).size,
        provider,
        generations: r!.generations,
        import: median.import,
        ingest: median.ingest,
        before,
        nativeBytes: fs.statSync(native).size,
        ratios,
      });
    } finally {
      fs.rmSync(native, { force: true });
    }
  }
  return out;
}

export function printImportFigures(rows: ImportFigures[]) {
  const before = rows.some((r) => r.before);
  console.log(
    `\n| file | store | generations | import s (CPU s, peak RSS) | \`ingest\` of its native export s (CPU s, peak RSS) | import ÷ ingest, wall | CPU |${before ? " baseline checkout's import s (CPU s, peak RSS) |" : ""}`,
  );
  console.log(`|---|---|---:|---:|---:|---:|---:|${before ? "---:|" : ""}`);
  for (const r of rows) {
    const t = (x: Timed) => `${x.seconds.toFixed(1)} (${x.cpuSeconds.toFixed(1)}, ${Math.round(x.peakRssMB)} MB)`;
    console.log(
      `| ${path.basename(r.file)} (${r.format}, ${(r.fileBytes / 1e6).toFixed(1)} MB; export ${(r.nativeBytes / 1e6).toFixed(1)} MB) | ${r.provider} | ${r.generations.toLocaleString("en")} | ${t(r.import)} | ${t(r.ingest)} | ${ratio(r.ratios.map((x) => x.wall))} | ${ratio(r.ratios.map((x) => x.cpu))} |${before ? ` ${r.before ? t(r.before) : "-"} |` : ""}`,
    );
  }
  if (rows.some((r) => r.ratios.length > 1))
    console.log(
      `${rows[0].ratios.length} rounds, import and ingest alternating: the median ratio (the range); the times are the median round's`,
    );
  console.log("target: import ÷ ingest ≤ 1 (the native loader's rate per generation)");
}

/** A median and, over several rounds, its range. */
function ratio(xs: number[]): string {
  const sorted = [...xs].sort((a, b) => a - b);
  const median = sorted[(sorted.length - 1) >> 1];
  return sorted.length > 1 ? `${median.toFixed(2)} (${sorted[0].toFixed(2)}–${sorted.at(-1)!.toFixed(2)})` : median.toFixed(2);
}
