// CPU time of the server per request, for comparing two builds of the same page (less noisy
// than latency percentiles on a shared 2-core machine: it does not count time spent waiting).
// Starts `next start` on the built .next, warms every path 100 times, then runs 5 rounds over
// the paths, N requests each at 10 concurrent clients, reading the server process's user +
// system time (all threads) from /proc before and after; prints the median per path.
//   DATABASE_URL=file:/path/store.db npx --no-install tsx scripts/bench/cpu-per-request.ts /about '/runs/KEY?tab=items'
// SQLite runs inside the server process (its time is counted); PostgreSQL's is not.
import { startServer } from "./pages";
import { processTicks, TICKS_PER_SECOND } from "./server-cpu";

const PORT = Number(process.env.BENCH_PORT ?? 3910);
const N = Number(process.env.BENCH_REQUESTS ?? 100);
const paths = process.argv.slice(2);
if (paths.length === 0) throw new Error("give the paths to measure, e.g. /about /runs/KEY");

const server = await startServer(process.env.DATABASE_URL ?? "file:data/stepwise.db", PORT);
const ticks = () => processTicks(server.pid!)!.ticks;
async function hit(path: string, count: number) {
  let i = 0;
  const client = async () => {
    while (i++ < count) await (await fetch(`http://127.0.0.1:${PORT}${path}`)).text();
  };
  await Promise.all(Array.from({ length: 10 }, client));
}
try {
  for (const p of paths) await hit(p, 100);
  const ms = new Map<string, number[]>(paths.map((p) => [p, []]));
  for (let round = 0; round < 5; round++) {
    for (const p of paths) {
      const t0 = ticks();
      await hit(p, N);
      ms.get(p)!.push(((ticks() - t0) * (1000 / TICKS_PER_SECOND)) / N);
    }
  }
  console.log(`| path | CPU ms per request (median of 5 rounds of ${N}) | rounds |\n|---|---:|---|`);
  for (const [p, xs] of ms)
    console.log(`| ${p} | ${[...xs].sort((a, b) => a - b)[2].toFixed(1)} | ${xs.map((x) => x.toFixed(1)).join(" ")} |`);
} finally {
  server.kill();
}
