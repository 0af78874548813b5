import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { fmt } from "./util";

// Page and API latency on loopback: N requests from C concurrent clients per route against
// `next start`, beside the trivial /api/health measured in the same run.
export interface RouteFigures {
  route: string;
  p50: number;
  p95: number;
  ratio95: number; // p95 ÷ trivial route's p95
}

export async function startServer(databaseUrl: string, port: number): Promise<ChildProcess> {
  const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port)], {
    env: { ...process.env, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: "1" },
    // Server errors go to a log beside the figures instead of drowning them.
    stdio: ["ignore", "ignore", fs.openSync(path.join(os.tmpdir(), `stepwise-bench-server-${port}.log`), "a")],
  });
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return server;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  server.kill();
  throw new Error("next start did not come up on port " + port);
}

async function timeRoute(url: string, requests: number, concurrency: number): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests) {
      next++;
      const t = performance.now();
      const res = await fetch(url);
      const body = await res.text();
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
      // A streamed page that failed renders app/error.tsx with status 200: not a timing.
      if (body.includes("This page could not be shown")) throw new Error(`${url}: the page rendered its error boundary`);
      times.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return times.sort((a, b) => a - b);
}

const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** Routes worth timing for a store: picks real run keys and item ids from it (SQLite file). */
export function routesFor(dbFile: string): { name: string; path: string }[] {
  const db = new Database(dbFile, { readonly: true });
  const runs = db.prepare(`SELECT r.id, r.key, r."itemCount" FROM "Run" r WHERE r."hasSteps" = 1 ORDER BY r."itemCount" DESC, r.key LIMIT 2`).all() as { id: number; key: string; itemCount: number }[];
  const item = db.prepare(`SELECT "itemKey" FROM "Generation" WHERE "runId" = ? AND "firstCorrect" = 0 ORDER BY id LIMIT 1`).get(runs[0].id) as { itemKey: string };
  // the longest trace of the run, from the middle of it: the heaviest generation page
  const long = db.prepare(`SELECT "itemKey" FROM "Generation" WHERE "runId" = ? AND "length" = (SELECT MAX("length") FROM "Generation" WHERE "runId" = ?) AND "firstCorrect" = 0 ORDER BY id LIMIT 1 OFFSET ?`)
    .get(runs[0].id, runs[0].id, Math.floor(runs[0].itemCount / 40)) as { itemKey: string } | undefined;
  db.close();
  const k = encodeURIComponent(runs[0].key);
  const both = runs.map((r) => encodeURIComponent(r.key)).join(",");
  const deepPage = Math.max(1, Math.floor(runs[0].itemCount / 50 / 2));
  return [
    { name: "trivial: /api/health", path: "/api/health" },
    { name: "leaderboard /", path: "/" },
    { name: "curves (2 runs)", path: `/curves?runs=${both}` },
    { name: "run", path: `/runs/${k}` },
    { name: "run items: failed, deep page", path: `/runs/${k}?tab=items&failed=1&page=${deepPage}` },
    { name: "run items: search in output", path: `/runs/${k}?tab=items&q=${encodeURIComponent("= 1")}` },
    { name: "generation", path: `/runs/${k}/items/${encodeURIComponent(item.itemKey)}` },
    { name: "generation: longest trace, mid-run", path: `/runs/${k}/items/${encodeURIComponent((long ?? item).itemKey)}` },
    { name: "compare (2 runs)", path: `/compare?runs=${both}` },
    { name: "API leaderboard", path: "/api/v1/leaderboard" },
    { name: "API run metrics", path: `/api/v1/runs/${k}/metrics` },
  ];
}

export async function benchRoutes(port: number, routes: { name: string; path: string }[], requests = 100, concurrency = 10): Promise<RouteFigures[]> {
  const base = `http://127.0.0.1:${port}`;
  for (const r of routes) await timeRoute(base + r.path, 3, 1); // warm up: compile caches, open the store
  const out: RouteFigures[] = [];
  let trivial95 = 1;
  for (const r of routes) {
    const t = await timeRoute(base + r.path, requests, concurrency);
    const p95 = pct(t, 0.95);
    if (out.length === 0) trivial95 = p95;
    out.push({ route: r.name, p50: pct(t, 0.5), p95, ratio95: p95 / trivial95 });
  }
  return out;
}

export function printRoutes(label: string, rows: RouteFigures[]) {
  console.log(`\n### ${label}`);
  console.log("| route | p50 ms | p95 ms | p95 ÷ trivial p95 |");
  console.log("|---|---:|---:|---:|");
  for (const r of rows) console.log(`| ${r.route} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.ratio95.toFixed(2)} |`);
  void fmt;
}
