import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { fmt } from "./util";

// Page and API latency on loopback: N requests from C concurrent clients per route against
// `next start`, beside two trivial routes measured in the same run: a page that reads no data
// (/about: the same layout, proxy and React rendering as every view) for the views, and
// /api/health for the API routes. The ratio to /api/health is printed for every route too.
export type RouteKind = "page" | "api";
export interface BenchRoute {
  name: string;
  path: string;
  kind: RouteKind;
}
export interface RouteFigures {
  route: string;
  kind: RouteKind;
  p50: number;
  p95: number;
  ratio95: number; // p95 ÷ the trivial route of its kind's p95
  ratioApi95: number; // p95 ÷ /api/health's p95
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
export function routesFor(dbFile: string): BenchRoute[] {
  const db = new Database(dbFile, { readonly: true });
  const runs = db
    .prepare(
      `SELECT r.id, r.key, r."itemCount", r."benchmark" FROM "Run" r WHERE r."hasSteps" = 1 ORDER BY r."itemCount" DESC, r.key LIMIT 2`,
    )
    .all() as { id: number; key: string; itemCount: number; benchmark: string }[];
  const item = db
    .prepare(`SELECT "itemKey" FROM "Generation" WHERE "runId" = ? AND "firstCorrect" = 0 ORDER BY id LIMIT 1`)
    .get(runs[0].id) as { itemKey: string };
  // the longest trace of the run, from the middle of it: the heaviest generation page
  const long = db
    .prepare(
      `SELECT "itemKey" FROM "Generation" WHERE "runId" = ? AND "length" = (SELECT MAX("length") FROM "Generation" WHERE "runId" = ?) AND "firstCorrect" = 0 ORDER BY id LIMIT 1 OFFSET ?`,
    )
    .get(runs[0].id, runs[0].id, Math.floor(runs[0].itemCount / 40)) as { itemKey: string } | undefined;
  // halfway down the failed generations: a full page of the same kind of rows at every size
  // (half the run's item count overshot the failed list at 10,000 items and timed a part-page)
  const { failed } = db.prepare(`SELECT COUNT(*) AS failed FROM "Generation" WHERE "runId" = ? AND "firstCorrect" = 0`).get(runs[0].id) as {
    failed: number;
  };
  const deepPage = Math.max(1, Math.floor(failed / 50 / 2));
  // what the item table's Next link on the page before carries: the last row of that page
  const cursor = db
    .prepare(
      `SELECT "itemId", "epoch" FROM "Generation" WHERE "runId" = ? AND "firstCorrect" = 0 ORDER BY "itemId", "epoch" LIMIT 1 OFFSET ?`,
    )
    .get(runs[0].id, (deepPage - 1) * 50 - 1) as { itemId: number; epoch: number } | undefined;
  db.close();
  const k = encodeURIComponent(runs[0].key);
  const both = runs.map((r) => encodeURIComponent(r.key)).join(",");
  const page = (name: string, path: string): BenchRoute => ({ name, path, kind: "page" });
  const api = (name: string, path: string): BenchRoute => ({ name, path, kind: "api" });
  return [
    api("trivial API: /api/health", "/api/health"),
    page("trivial page: /about", "/about"),
    page("leaderboard /", "/"),
    page("curves (2 runs)", `/curves?runs=${both}`),
    page("run", `/runs/${k}`),
    page(
      "run items: failed, deep page (Next link)",
      `/runs/${k}?tab=items&failed=1&page=${deepPage}${cursor ? `&after=${cursor.itemId}.${cursor.epoch}` : ""}`,
    ),
    page("run items: failed, deep page (typed page=N)", `/runs/${k}?tab=items&failed=1&page=${deepPage}`),
    page("run items: search in output", `/runs/${k}?tab=items&q=${encodeURIComponent("= 1")}`),
    page("generation", `/runs/${k}/items/${encodeURIComponent(item.itemKey)}`),
    page("generation: longest trace, mid-run", `/runs/${k}/items/${encodeURIComponent((long ?? item).itemKey)}`),
    page("compare (2 runs)", `/compare?runs=${both}`),
    page("study (pooled over models, by length)", `/study?benchmark=${encodeURIComponent(runs[0].benchmark)}&series=all`),
    api("API leaderboard", "/api/v1/leaderboard"),
    api("API run metrics", `/api/v1/runs/${k}/metrics`),
    api("API study", `/api/v1/study?benchmark=${encodeURIComponent(runs[0].benchmark)}&series=all`),
    // link-preview images (next/og: layout, then a PNG rasterised on the server)
    api("preview image: site card", "/og/site"),
    api("preview image: run", `/og/runs/${k}`),
    api("preview image: generation, longest trace", `/og/runs/${k}/items/${encodeURIComponent((long ?? item).itemKey)}`),
    api("preview image: compare (2 runs)", `/og/compare?runs=${both}`),
  ];
}

/** `xs` in an order drawn from `seed` (a fixed LCG): no route always follows the heaviest one and pays its garbage. */
function shuffled<T>(xs: T[], seed: number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * Times `requests` requests per route at `concurrency` clients, in `rounds` rounds that each
 * visit every route in a shuffled order, so the trivial routes are sampled over the same minutes as the views
 * they divide: timed one after the other, a shared machine's slower minute fell on whichever
 * route it met (docs/performance.md, "Pages and API", stop 52).
 */
export async function benchRoutes(
  port: number,
  routes: BenchRoute[],
  requests = 100,
  concurrency = 10,
  rounds = 5,
): Promise<RouteFigures[]> {
  const base = `http://127.0.0.1:${port}`;
  for (const r of routes) await timeRoute(base + r.path, 3, 1); // warm up: compile caches, open the store
  const timed = routes.map((r) => ({ r, t: [] as number[] }));
  const perRound = Math.max(concurrency, Math.ceil(requests / rounds));
  for (let round = 0; round < rounds; round++)
    for (const x of shuffled(timed, round + 1)) x.t.push(...(await timeRoute(base + x.r.path, perRound, concurrency)));
  for (const x of timed) x.t.sort((a, b) => a - b);
  const trivial = (kind: RouteKind) => {
    const hit = timed.find((x) => x.r.kind === kind && x.r.name.startsWith("trivial"));
    if (!hit) throw new Error(`no trivial ${kind} route to compare against`);
    return pct(hit.t, 0.95);
  };
  const base95 = { page: trivial("page"), api: trivial("api") };
  return timed.map(({ r, t }) => {
    const p95 = pct(t, 0.95);
    return { route: r.name, kind: r.kind, p50: pct(t, 0.5), p95, ratio95: p95 / base95[r.kind], ratioApi95: p95 / base95.api };
  });
}

export function printRoutes(label: string, rows: RouteFigures[]) {
  console.log(`\n### ${label}`);
  console.log("| route | p50 ms | p95 ms | p95 ÷ trivial of its kind | p95 ÷ /api/health |");
  console.log("|---|---:|---:|---:|---:|");
  for (const r of rows)
    console.log(`| ${r.route} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.ratio95.toFixed(2)} | ${r.ratioApi95.toFixed(2)} |`);
  void fmt;
}

/**
 * Does a view's cost grow with the store? Each route's p95 at every size beside its p95 at
 * the smallest size, raw and relative to the trivial route of the same run (which takes out
 * the machine's mood between runs). Target: ≤ 1.5.
 */
export function printGrowth(runs: { provider: string; items: number; rows: RouteFigures[] }[]) {
  for (const provider of [...new Set(runs.map((r) => r.provider))]) {
    const mine = runs.filter((r) => r.provider === provider).sort((a, b) => a.items - b.items);
    if (mine.length < 2) continue;
    const [first, ...rest] = mine;
    console.log(`\n### Growth with the store (${provider}): p95 at N items ÷ p95 at ${fmt(first.items)} items`);
    console.log(`| route | ${rest.map((r) => `${fmt(r.items)}: raw | ${fmt(r.items)}: vs trivial`).join(" | ")} |`);
    console.log(`|---|${rest.map(() => "---:|---:").join("|")}|`);
    for (const row of first.rows) {
      const cells = rest.map((r) => {
        const other = r.rows.find((x) => x.route === row.route);
        return other ? `${(other.p95 / row.p95).toFixed(2)} | ${(other.ratio95 / row.ratio95).toFixed(2)}` : "– | –";
      });
      console.log(`| ${row.route} | ${cells.join(" | ")} |`);
    }
  }
}
