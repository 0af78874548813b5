// `npm run bench:peer -- FILE.jsonl [--promptfoo DIR] [--runs N] [--pages]`: the same
// results loaded by Stepwise and by promptfoo (issue 19). `stepwise ingest FILE` into a fresh
// SQLite store beside `promptfoo import` of the file converted to promptfoo's export JSON
// (promptfoo-file.ts) into a fresh PROMPTFOO_CONFIG_DIR: each a whole CLI process, timed by
// /usr/bin/time (wall, CPU, peak RSS), store bytes after a checkpoint (-wal included); the
// parse floor for scale. --runs N: medians of N alternating rounds. --pages: equivalent pages
// of the two stores (peer-pages.ts; needs `npm run build`). promptfoo is installed outside
// the checkout (DIR, or PROMPTFOO_DIR, default /work/peer-promptfoo: `npm install
// promptfoo@0.121.20` there); without it this prints that and skips.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { percentile } from "../../lib/analysis/stats";
import { sqliteBytes } from "./file-figures";
import { parseFloor } from "./parse-floor";
import { peerPages } from "./peer-pages";
import { writePromptfooExport } from "./promptfoo-file";
import { fmt } from "./util";

const args = process.argv.slice(2);
const at = args.indexOf("--promptfoo");
const pfDir = path.resolve(at >= 0 ? args.splice(at, 2)[1] : (process.env.PROMPTFOO_DIR ?? "/work/peer-promptfoo"));
const pagesAt = args.indexOf("--pages");
const pages = pagesAt >= 0 && args.splice(pagesAt, 1).length > 0;
const runsAt = args.indexOf("--runs");
const runs = runsAt >= 0 ? Math.max(1, Number(args.splice(runsAt, 2)[1]) || 1) : 1;
const file = args[0];
if (!file || !fs.existsSync(file)) {
  console.error("usage: npm run bench:peer -- FILE.jsonl [--promptfoo DIR] [--runs N] [--pages]");
  process.exit(2);
}
const pfPkg = path.join(pfDir, "node_modules/promptfoo/package.json");
if (!fs.existsSync(pfPkg)) {
  console.log(`promptfoo is not installed in ${pfDir} (npm install promptfoo@0.121.20 there, or --promptfoo DIR): skipped`);
  process.exit(0);
}
const pfVersion = (JSON.parse(fs.readFileSync(pfPkg, "utf8")) as { version: string }).version;
const pfEntry = path.join(pfDir, "node_modules/promptfoo/dist/src/entrypoint.js");
const TIME = "/usr/bin/time";

interface Timed {
  seconds: number;
  cpuSeconds: number;
  maxRssMB: number;
}

/** One CLI process under /usr/bin/time: wall, user + system CPU, peak RSS. */
function timed(argv: string[], opts: { cwd: string; env: Record<string, string> }): Timed {
  const out = path.join(os.tmpdir(), `stepwise-peer-time-${process.pid}`);
  const started = process.hrtime.bigint();
  const r = spawnSync(TIME, ["-o", out, "-f", "%U %S %M", process.execPath, ...argv], {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`${argv.join(" ")} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  const [user, sys, rssKB] = fs.readFileSync(out, "utf8").trim().split("\n").pop()!.split(" ").map(Number);
  fs.rmSync(out, { force: true });
  return { seconds, cpuSeconds: user + sys, maxRssMB: rssKB / 1024 };
}

/** Medians of each figure over the runs. */
function median(xs: Timed[]): Timed {
  const m = (k: keyof Timed) =>
    percentile(
      xs.map((x) => x[k]),
      0.5,
    );
  return { seconds: m("seconds"), cpuSeconds: m("cpuSeconds"), maxRssMB: m("maxRssMB") };
}

if (!fs.existsSync(TIME)) {
  console.log(`${TIME} is missing (apt-get install time): skipped`);
  process.exit(0);
}
const native = path.resolve(file);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-bench-peer-"));
try {
  console.log(
    `# Stepwise beside promptfoo ${pfVersion} — ${new Date().toISOString()}, node ${process.version}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  const floor = await parseFloor(native);

  // Stepwise: the CLI from its bundle, built first so the build is not timed
  execFileSync(process.execPath, ["bin/stepwise.mjs", "--help"], { stdio: "ignore" });
  const swDb = path.join(dir, "stepwise.db");
  const stepwise = () => {
    for (const f of [swDb, swDb + "-wal", swDb + "-shm"]) fs.rmSync(f, { force: true });
    return timed([path.resolve("bin/stepwise.mjs"), "ingest", native], { cwd: process.cwd(), env: { DATABASE_URL: "file:" + swDb } });
  };

  // promptfoo: the export JSON (its format is one JSON document: promptfoo reads it whole)
  const pfJson = path.join(dir, "promptfoo-export.json");
  const convStarted = process.hrtime.bigint();
  const converted = await writePromptfooExport(native, pfJson);
  const convSeconds = Number(process.hrtime.bigint() - convStarted) / 1e9;
  const cfg = path.join(dir, "promptfoo");
  const pfEnv = {
    PROMPTFOO_CONFIG_DIR: cfg,
    // nothing calls home: no telemetry, update check, sharing or remote generation
    PROMPTFOO_DISABLE_TELEMETRY: "1",
    PROMPTFOO_DISABLE_UPDATE: "1",
    PROMPTFOO_DISABLE_SHARING: "1",
    PROMPTFOO_DISABLE_REMOTE_GENERATION: "1",
    PROMPTFOO_DISABLE_REDTEAM_REMOTE_GENERATION: "1",
    NO_COLOR: "1",
  };
  const promptfoo = () => {
    fs.rmSync(cfg, { recursive: true, force: true });
    fs.mkdirSync(cfg);
    // an empty working directory: no promptfooconfig.* for it to pick up
    return timed([pfEntry, "import", pfJson], { cwd: cfg, env: pfEnv });
  };
  // the other one first on odd rounds
  const swRuns: Timed[] = [];
  const pfRuns: Timed[] = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2) pfRuns.push(promptfoo());
    swRuns.push(stepwise());
    if (i % 2 === 0) pfRuns.push(promptfoo());
  }
  const sw = median(swRuns);
  const pf = median(pfRuns);
  const swBytes = sqliteBytes(swDb);
  const pfDb = path.join(cfg, "promptfoo.db");
  const pfBytes = sqliteBytes(pfDb);
  const check = new Database(pfDb, { readonly: true });
  const stored = check.prepare("SELECT COUNT(*) AS n, SUM(success) AS passed FROM eval_results").get() as { n: number; passed: number };
  const evalId = (check.prepare("SELECT id FROM evals").get() as { id: string }).id;
  // promptfoo's largest tables and indexes apart (its indexes over JSON columns copy them)
  const objects = check.prepare("SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 4").all() as {
    name: string;
    bytes: number;
  }[];
  check.close();
  if (stored.n !== converted.results || stored.passed !== converted.passed)
    throw new Error(
      `promptfoo stored ${stored.n} results (${stored.passed} passed), the export holds ${converted.results} (${converted.passed})`,
    );

  const mb = (n: number) => (n / 1e6).toFixed(1);
  const fileBytes = fs.statSync(native).size;
  console.log(
    `\n### ${path.basename(native)}: ${mb(fileBytes)} MB, ${fmt(converted.results)} results (${fmt(converted.passed)} passed); ` +
      `parse floor ${floor.seconds.toFixed(2)} s (CPU ${floor.cpuSeconds.toFixed(2)} s); ` +
      `promptfoo export JSON ${mb(fs.statSync(pfJson).size)} MB, written in ${convSeconds.toFixed(1)} s (not counted)`,
  );
  console.log(
    `\n| ${runs > 1 ? `median of ${runs} alternating runs` : "one run each"} | Stepwise \`ingest\` | promptfoo \`import\` | promptfoo ÷ Stepwise |`,
  );
  console.log("|---|---:|---:|---:|");
  const row = (what: string, a: number, b: number, f: (n: number) => string) =>
    console.log(`| ${what} | ${f(a)} | ${f(b)} | ${(b / a).toFixed(2)} |`);
  row("load, wall s", sw.seconds, pf.seconds, (n) => n.toFixed(2));
  row("load, CPU s", sw.cpuSeconds, pf.cpuSeconds, (n) => n.toFixed(2));
  row("load wall ÷ parse floor", sw.seconds / floor.seconds, pf.seconds / floor.seconds, (n) => n.toFixed(1));
  row("peak RSS, MB", sw.maxRssMB, pf.maxRssMB, fmt);
  row("store, MB (after checkpoint)", swBytes.total, pfBytes.total, mb);
  row("store ÷ native file bytes", swBytes.total / fileBytes, pfBytes.total / fileBytes, (n) => n.toFixed(2));
  const top = (t: [string, number][]) =>
    t
      .filter(([, b]) => b >= 100_000)
      .slice(0, 6)
      .map(([n, b]) => `${n} ${mb(b)}`)
      .join(", ");
  console.log(`\nStepwise MB by table (indexes included): ${top(swBytes.tables)}`);
  console.log(`promptfoo MB by table and index: ${objects.map((o) => `${o.name} ${mb(o.bytes)}`).join(", ")}`);
  if (pages) {
    const swCheck = new Database(swDb, { readonly: true });
    const runKey = (swCheck.prepare(`SELECT key FROM "Run" ORDER BY id LIMIT 1`).get() as { key: string }).key;
    swCheck.close();
    const failed = converted.results - converted.passed;
    await peerPages({
      stepwiseDb: swDb,
      runKey,
      failed,
      promptfooEntry: pfEntry,
      promptfooEnv: pfEnv,
      promptfooDir: cfg,
      evalId,
      requests: 20,
    });
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
