// The study page against the trivial page at scale: N simulated procedural-arith runs
// (several models × look-backs, lengths 5..95) loaded into a fresh SQLite store, then /study
// (pooled and per model), GET /api/v1/study and /about timed on `next start` (after
// `next build`). `npx tsx scripts/bench/study.ts RUNS ITEMS_PER_LENGTH [PORT]`; the store is
// kept in BENCH_DIR (default a temporary directory) for reruns with BENCH_REUSE=1.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateDataset } from "../../lib/generate/dataset";
import { openStore } from "../../lib/db";
import { loadNative } from "../../lib/store/load";
import { benchRoutes, printRoutes, startServer, type BenchRoute } from "./pages";

const runs = Number(process.argv[2] ?? 20);
const perLength = Number(process.argv[3] ?? 50);
const port = Number(process.argv[4] ?? process.env.BENCH_PORT ?? 3260);
const LENGTHS = [5, 15, 25, 35, 45, 55, 65, 75, 85, 95];
const dir = process.env.BENCH_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-study-bench-"));
const file = path.join(dir, `study-${runs}x${perLength * LENGTHS.length}.db`);
const url = "file:" + file;

if (!(process.env.BENCH_REUSE === "1" && fs.existsSync(file))) {
  fs.rmSync(file, { force: true });
  const store = await openStore(url);
  const t = performance.now();
  for (let r = 0; r < runs; r++) {
    const lookback = [2, 3, 5, 7][r % 4];
    const model = { name: `Bench-${Math.floor(r / 4)}`, params_b: 2 ** (Math.floor(r / 4) + 1), family: "Bench", thinking: false };
    const lines = generateDataset({
      benchmark: "procedural-arith",
      lengths: LENGTHS,
      itemsPerLength: perLength,
      lookback,
      seed: r,
      simulate: { name: `bench-${r}`, stepReliability: 0.995 - 0.004 * lookback, premature: 0.05, underExecute: 0.05, model },
      runKey: `bench-${r}`,
    });
    const res = await loadNative(store, `bench-${r}.jsonl`, [[...lines].join("\n") + "\n"]);
    if (res.errors.length) throw new Error(JSON.stringify(res.errors.slice(0, 3)));
  }
  await store.close();
  console.log(
    `loaded ${runs} runs × ${(perLength * LENGTHS.length).toLocaleString("en")} generations in ${((performance.now() - t) / 1000).toFixed(0)} s`,
  );
}

const routes: BenchRoute[] = [
  { name: "trivial API: /api/health", path: "/api/health", kind: "api" },
  { name: "trivial page: /about", path: "/about", kind: "page" },
  { name: "study: pooled over models by length", path: "/study?benchmark=procedural-arith&series=all", kind: "page" },
  {
    name: "study: per model by look-back, step accuracy",
    path: "/study?benchmark=procedural-arith&x=lookback&metric=step_accuracy",
    kind: "page",
  },
  { name: "API study: pooled by length", path: "/api/v1/study?benchmark=procedural-arith&series=all", kind: "api" },
];
const server = await startServer(url, port);
try {
  const rows = await benchRoutes(port, routes, Number(process.env.BENCH_REQUESTS ?? 60));
  printRoutes(`${runs} runs × ${(perLength * LENGTHS.length).toLocaleString("en")} generations (SQLite)`, rows);
} finally {
  server.kill();
}
