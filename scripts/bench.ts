// `npm run bench`: the performance report. Prints figures, asserts nothing: these machines are
// shared and noisy, so every figure stands beside a baseline measured in the same run.
//   BENCH_ITEMS=100000[,800000]      procedural-arith items per load (lengths 5..95)
//   BENCH_PG=postgresql://… | off    PostgreSQL admin URL (default: the local server when it answers)
//   BENCH_REQUESTS=200               requests per route (10 concurrent clients, in 5 rounds over the routes)
//   BENCH_BROWSER=off                skip the Chromium figures (LCP, long tasks)
//   BENCH_PORT=3900                  port of the `next start` under test
//   BENCH_MEMORY=off                 skip peak memory of `stepwise ingest` on a 1 GB file
//   BENCH_MEMORY_ITEMS=260000[,2400000]  items of that file's one run (260,000: 1 GB; 2,400,000: 9.4 GB, past the
//                                    reader's items in memory), each size a file of its own
//   BENCH_PAGES=off                  loads and memory only (no build, no server, no browser)
//   BENCH_IMPORT=off                 skip the importers beside `stepwise ingest` (npm run bench:import)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { browserFigures, printBrowser } from "./bench/browser";
import { bundleFigures, printBundles } from "./bench/bundle";
import { printFileFigures, type FileFigures } from "./bench/file-figures";
import { benchLoad, printLoad, type LoadFigures } from "./bench/load";
import { importFigures, printImportFigures } from "./bench/import-figures";
import { benchImportFiles } from "./bench/import-files";
import { benchMemory, ITEMS_1GB, printMemory } from "./bench/memory";
import { benchRoutes, printGrowth, printRoutes, routesFor, startServer, type RouteFigures } from "./bench/pages";
import { analyze, pgReachable } from "./bench/util";

const sizes = (process.env.BENCH_ITEMS ?? "100000").split(",").map(Number);
const requests = Number(process.env.BENCH_REQUESTS ?? 200);
const lengths = [5, 15, 25, 35, 45, 55, 65, 75, 85, 95];
const pgDefault = "postgresql://postgres@127.0.0.1:5432/test";
const pgAdmin = process.env.BENCH_PG === "off" ? null : (process.env.BENCH_PG ?? ((await pgReachable(pgDefault)) ? pgDefault : null));
// BENCH_DIR: work in (and keep) this directory; generated files already there are reused.
const dir = process.env.BENCH_DIR
  ? (fs.mkdirSync(process.env.BENCH_DIR, { recursive: true }), process.env.BENCH_DIR)
  : fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-bench-"));
const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  execFileSync(process.execPath, ["bin/stepwise.mjs", ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
const PORT = Number(process.env.BENCH_PORT ?? 3900); // another checkout benchmarking at once needs its own

console.log(`# Stepwise benchmark — ${new Date().toISOString()}`);
console.log(
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
const withPages = process.env.BENCH_PAGES !== "off";
if (withPages && !fs.existsSync(".next/BUILD_ID")) {
  console.log("building the app (next build) for the page benchmark…");
  execFileSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
    stdio: "ignore",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
}

if (fs.existsSync(".next/BUILD_ID")) printBundles(bundleFigures());

if (process.env.BENCH_MEMORY !== "off") {
  const memoryItems = (process.env.BENCH_MEMORY_ITEMS ?? String(ITEMS_1GB)).split(",").map(Number);
  console.log(`\n## Memory: \`stepwise ingest\` of one run of ${memoryItems.map((n) => n.toLocaleString("en")).join(", ")} items (SQLite)`);
  const rows = [];
  for (const items of memoryItems)
    rows.push(
      ...(await benchMemory(cli, dir, items, [
        { label: "`stepwise ingest` (defaults: two threads)", args: [] },
        ...(items === memoryItems[0] ? [{ label: "`stepwise ingest --threads 1`", args: ["--threads", "1"] }] : []),
      ])),
    );
  printMemory(rows);
}

if (process.env.BENCH_IMPORT !== "off") {
  console.log("\n## Importers: `stepwise import` beside `stepwise ingest` of the native export of the run it made");
  const rows = [];
  for (const f of benchImportFiles(dir, 10_000)) rows.push(...(await importFigures(path.resolve(f), path.resolve(dir), pgAdmin)));
  printImportFigures(rows);
}

/** Browser figures on the views a person opens first; the generation page with a long trace. */
const BROWSER_PAGES = [
  "leaderboard /",
  "run",
  "run items: failed, deep page (Next link)",
  "generation: longest trace, mid-run",
  "compare (2 runs)",
];

/** Route figures per store label and size, for the growth table at the end. */
const grown: { provider: string; items: number; rows: RouteFigures[] }[] = [];

async function pages(label: string, url: string, sqliteFile: string, browser = false, size?: number) {
  if (!withPages) return;
  // A PostgreSQL store straight after a load has no planner statistics until autovacuum
  // analyses it (never, on a server with autovacuum off): time the steady state.
  if (url.startsWith("postgres")) await analyze(url);
  const server = await startServer(url, PORT);
  try {
    const routes = routesFor(sqliteFile);
    const rows = await benchRoutes(PORT, routes, requests);
    printRoutes(label, rows);
    if (size) grown.push({ provider: url.startsWith("postgres") ? "PostgreSQL" : "SQLite", items: size, rows });
    if (browser && process.env.BENCH_BROWSER !== "off")
      printBrowser(
        label,
        await browserFigures(
          `http://127.0.0.1:${PORT}`,
          routes.filter((r) => BROWSER_PAGES.includes(r.name)),
        ),
      );
  } finally {
    server.kill();
  }
}

if (withPages) {
  const demoDb = path.join(dir, "demo.db");
  cli(["demo"], { DATABASE_URL: "file:" + demoDb });
  console.log("\n## Pages and API: p50/p95 over " + requests + " requests per route, 10 concurrent clients, loopback");
  await pages("demo store (SQLite)", "file:" + demoDb, demoDb, true);
}

const load: LoadFigures[] = [];
const files: FileFigures[] = [];
for (const items of sizes) {
  const gen = (key: string, p: string, file: string) =>
    cli([
      "generate",
      "--benchmark",
      "procedural-arith",
      "--lengths",
      lengths.join(","),
      "--items-per-length",
      String(Math.ceil(items / lengths.length)),
      "--seed",
      "7",
      "--simulate-p",
      p,
      "--run-key",
      key,
      "--model",
      `Sim-${key}`,
      "--out",
      file,
    ]);
  const fileA = path.join(dir, `a-${items}.jsonl`);
  const fileB = path.join(dir, `b-${items}.jsonl`);
  const t = Date.now();
  const reuse = (f: string) => process.env.BENCH_DIR && fs.existsSync(f) && fs.statSync(f).size > 0;
  if (!reuse(fileA)) gen(`bench-a-${items}`, "0.98", fileA);
  if (!reuse(fileB)) gen(`bench-b-${items}`, "0.95", fileB);
  console.log(
    `\ngenerated 2 × ${items} items: ${(fs.statSync(fileA).size / 1e6).toFixed(0)} MB each, in ${((Date.now() - t) / 1000).toFixed(1)} s`,
  );
  const stores = await benchLoad(fileA, dir, pgAdmin, String(items));
  load.push(...stores.figures);
  files.push(stores.file);
  if (!process.env.BENCH_DIR) fs.rmSync(fileA, { force: true }); // disk: at 800,000 items each file is 3 GB
  // A second run over the same items, so compare and curves have two runs.
  cli(["ingest", fileB], { DATABASE_URL: stores.sqliteUrl });
  if (stores.pgUrl) cli(["ingest", fileB], { DATABASE_URL: stores.pgUrl });
  if (!process.env.BENCH_DIR) fs.rmSync(fileB, { force: true });
  // Printed as it comes: a study-scale run takes an hour, and a partial report is still a report.
  printLoad(stores.figures);
  printFileFigures(stores.file);
  await pages(`${items.toLocaleString("en")} items per run, 2 runs (SQLite)`, stores.sqliteUrl, stores.sqliteFile, true, items);
  if (stores.pgUrl)
    await pages(`${items.toLocaleString("en")} items per run, 2 runs (PostgreSQL)`, stores.pgUrl, stores.sqliteFile, false, items);
  // Query plans of the hot queries at this size, beside the report (BENCH_PLANS=off skips).
  if (process.env.BENCH_PLANS !== "off") {
    for (const [provider, url] of [
      ["sqlite", stores.sqliteUrl],
      ["postgres", stores.pgUrl],
    ] as const) {
      if (!url) continue;
      const out = path.resolve(`bench-plans-${items}-${provider}.md`);
      fs.writeFileSync(
        out,
        execFileSync(process.execPath, ["node_modules/.bin/tsx", "scripts/bench/explain.ts", `bench-a-${items}`], {
          env: { ...process.env, DATABASE_URL: url },
        }),
      );
      console.log(`query plans: ${out}`);
    }
  }
  await stores.cleanup();
}
console.log("\n## Load (native JSONL, analysis included) vs the bulk-insert baseline (same rows, one transaction)");
printLoad(load);
console.log("ratio = our rows/s ÷ baseline rows/s (rows = items + generations; step results too in stores before migration 0009)");
console.log("\n## Load beside the parse floor, store beside the file");
for (const f of files) printFileFigures(f);
if (withPages && sizes.length > 1) printGrowth(grown);
if (!process.env.BENCH_DIR) fs.rmSync(dir, { recursive: true, force: true });
