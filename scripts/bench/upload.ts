// A native file posted to `POST /api/v1/runs` of `next start` (SQLite), as `stepwise push`'s
// server receives it: the upload's time on two threads beside one (STEPWISE_LOAD_THREADS=1,
// the baseline, same run), and how `/about` answers meanwhile (asked every 25 ms) beside how it
// answers with nothing loading. Each round uploads the same run again (replacing it), first
// alone, then with the page requests. The upload is sent by a child process: fetch with a body of
// 100 MB holds its own event loop for ~0.7 s, and /about's requests sent meanwhile from the
// same process left only after it, which this bench once counted as the server's.
//   npx tsx scripts/bench/upload.ts FILE.jsonl [--rounds N]   (after `next build`)
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startServer } from "./pages";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: "string", default: "2" } } });
const file = positionals[0];
if (!file) throw new Error("give a native JSONL file: npx tsx scripts/bench/upload.ts FILE.jsonl [--rounds N]");
const rounds = Number(values.rounds);
const port = Number(process.env.BENCH_PORT ?? 3930);
const base = `http://127.0.0.1:${port}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-upload-bench-"));
const url = "file:" + path.join(dir, "store.db");
const cli = (...args: string[]) =>
  execFileSync(process.execPath, ["bin/stepwise.mjs", ...args], { env: { ...process.env, DATABASE_URL: url }, encoding: "utf8" });
cli("migrate");
const token = /sw_[\w-]+/.exec(cli("token", "create", "--name", "bench", "--role", "editor"))?.[0];
if (!token) throw new Error("no token printed by `stepwise token create`");
const bytes = fs.statSync(file).size;

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

async function about(): Promise<number> {
  const t = performance.now();
  await (await fetch(`${base}/about`)).text();
  return performance.now() - t;
}

/** The file posted by a child process, timed there from the request to the end of the answer. */
function postFromChild(): Promise<{ status: number; text: string; seconds: number }> {
  const script = `const body = require("node:fs").readFileSync(process.env.FILE);
    const t = performance.now();
    fetch(process.env.TARGET, { method: "POST", body, headers: { authorization: "Bearer " + process.env.TOKEN, "content-type": "application/x-ndjson" } })
      .then(async (res) => { const text = await res.text(); process.stdout.write(JSON.stringify({ status: res.status, text, seconds: (performance.now() - t) / 1000 })); });`;
  const target = `${base}/api/v1/runs?name=${encodeURIComponent(path.basename(file))}`;
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ["-e", script],
      { env: { ...process.env, FILE: file, TARGET: target, TOKEN: token }, maxBuffer: 1 << 26 },
      (e, out) => (e ? reject(e) : resolve(JSON.parse(out))),
    ),
  );
}

/** One upload; with `poll`, /about asked every 25 ms until it is answered. */
async function upload(poll: boolean): Promise<{ seconds: number; pages: number[] }> {
  const pages: number[] = [];
  let done = false;
  const asking = (async () => {
    while (poll && !done) {
      pages.push(await about());
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  const sent = await postFromChild();
  done = true;
  await asking;
  if (sent.status !== 201) throw new Error(`upload: HTTP ${sent.status}: ${sent.text.slice(0, 300)}`);
  return { seconds: sent.seconds, pages };
}

const rows: string[] = [];
const alone: Record<string, number[]> = {};
try {
  for (const threads of ["2", "1"]) {
    process.env.STEPWISE_LOAD_THREADS = threads;
    const server = await startServer(url, port);
    try {
      for (let i = 0; i < 20; i++) await about(); // the page's modules loaded, as on a server in use
      const idle: number[] = [];
      for (let i = 0; i < 40; i++) idle.push(await about());
      for (let r = 1; r <= rounds; r++) {
        const a = await upload(false);
        const b = await upload(true);
        (alone[threads] ??= []).push(a.seconds);
        const ms = (x: number) => x.toFixed(0);
        rows.push(
          `| ${threads} | ${r} | ${a.seconds.toFixed(2)} | ${b.seconds.toFixed(2)} | ${b.pages.length} | ${ms(quantile(b.pages, 0.5))} | ${ms(quantile(b.pages, 0.95))} | ${ms(Math.max(...b.pages))} | ${ms(quantile(idle, 0.5))} / ${ms(quantile(idle, 0.95))} |`,
        );
      }
    } finally {
      server.kill();
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
console.log(
  `\n### ${path.basename(file)} (${(bytes / 1e6).toFixed(1)} MB) posted to POST /api/v1/runs, SQLite, ${os.loadavg()[0].toFixed(1)} load\n`,
);
console.log(
  "| threads | round | upload alone s | upload with /about asked s | /about answers | p50 ms | p95 ms | worst ms | idle /about p50 / p95 ms |",
);
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const row of rows) console.log(row);
console.log(`\nupload alone, two threads ÷ one (the baseline): ${(mean(alone["2"]) / mean(alone["1"])).toFixed(2)}`);
