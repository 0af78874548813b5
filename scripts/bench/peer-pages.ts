// Equivalent pages of the two loaded stores on loopback, for `npm run bench:peer -- … --pages`
// (compare-promptfoo.ts): our server-rendered run pages (`next start`, needs `npm run build`)
// beside what promptfoo's eval view (`promptfoo view`) fetches to show the same thing: its
// HTML shell and then a 50-row page of /api/eval/:id/table, in sequence (the table cannot show
// before its data arrives). Medians of sequential requests after a warm-up; the JS bundles
// both sides load are left out.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startServer } from "./pages";

async function until(url: string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer`);
}

async function median(url: string, n: number): Promise<number> {
  const t: number[] = [];
  for (let i = 0; i < n + 3; i++) {
    const s = performance.now();
    const res = await fetch(url);
    await res.text();
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    if (i >= 3) t.push(performance.now() - s); // the first three warm caches up
  }
  t.sort((a, b) => a - b);
  return t[t.length >> 1];
}

export async function peerPages(opts: {
  stepwiseDb: string;
  runKey: string;
  failed: number;
  promptfooEntry: string;
  promptfooEnv: Record<string, string>;
  promptfooDir: string;
  evalId: string;
  requests: number;
}): Promise<void> {
  if (!fs.existsSync(".next/BUILD_ID")) {
    console.log("\nPages: skipped (no production build here: `npm run build` first).");
    return;
  }
  const [ourPort, theirPort] = [3900 + (process.pid % 50), 15600 + (process.pid % 50)];
  const ours = await startServer("file:" + opts.stepwiseDb, ourPort);
  const theirs = spawn(process.execPath, [opts.promptfooEntry, "view", "-n", "-p", String(theirPort)], {
    cwd: opts.promptfooDir,
    env: { ...process.env, ...opts.promptfooEnv },
    stdio: ["ignore", "ignore", fs.openSync(path.join(os.tmpdir(), `stepwise-bench-promptfoo-view-${theirPort}.log`), "a")],
  });
  try {
    const k = encodeURIComponent(opts.runKey);
    const id = encodeURIComponent(opts.evalId);
    const table = (q: string) => `/api/eval/${id}/table?limit=50&${q}`;
    await until(`http://127.0.0.1:${theirPort}${table("offset=0&filterMode=all")}`);
    const deep = Math.max(1, Math.floor(opts.failed / 50 / 2)); // halfway down the failed results
    const search = encodeURIComponent("= 1");
    const pairs: [string, string, string[]][] = [
      ["run overview / eval page, first 50 results", `/runs/${k}`, [`/eval/${id}`, table("offset=0&filterMode=all")]],
      ["results, first 50", `/runs/${k}?tab=items`, [`/eval/${id}`, table("offset=0&filterMode=all")]],
      ["failed results, first 50", `/runs/${k}?tab=items&failed=1`, [table("offset=0&filterMode=failures")]],
      [
        `failed results, page ${deep}`,
        `/runs/${k}?tab=items&failed=1&page=${deep}`,
        [table(`offset=${(deep - 1) * 50}&filterMode=failures`)],
      ],
      ["search in output (“= 1”)", `/runs/${k}?tab=items&q=${search}`, [table(`offset=0&filterMode=all&search=${search}`)]],
    ];
    console.log(`\n| page (median of ${opts.requests} sequential requests) | Stepwise ms | promptfoo ms | promptfoo ÷ Stepwise |`);
    console.log("|---|---:|---:|---:|");
    for (const [name, our, their] of pairs) {
      const a = await median(`http://127.0.0.1:${ourPort}${our}`, opts.requests);
      let b = 0;
      for (const u of their) b += await median(`http://127.0.0.1:${theirPort}${u}`, opts.requests);
      console.log(`| ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(1)} |`);
    }
  } finally {
    ours.kill();
    theirs.kill();
  }
}
