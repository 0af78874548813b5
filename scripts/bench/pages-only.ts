// The page section of `npm run bench` against stores that are already loaded (a study-scale
// load takes half an hour): `npx --no-install tsx scripts/bench/pages-only.ts 10000=/path/a.db 800000=/path/b.db`.
// Each argument is the items per run and a SQLite store holding the bench's two runs of that
// size (`stepwise ingest a-N.jsonl b-N.jsonl`, files from BENCH_DIR); `ITEMS=FILE@postgresql://…`
// serves a PostgreSQL store loaded with the same files in the same order (routes are picked
// from FILE, so ids must agree). Prints the same tables as the bench.
import os from "node:os";
import { browserFigures, printBrowser } from "./browser";
import { benchRoutes, printGrowth, printRoutes, routesFor, startServer, type RouteFigures } from "./pages";

const requests = Number(process.env.BENCH_REQUESTS ?? 200);
const PORT = Number(process.env.BENCH_PORT ?? 3900);
const BROWSER_PAGES = ["leaderboard /", "run items: failed, deep page (Next link)", "generation: longest trace, mid-run"];
const stores = process.argv.slice(2).map((a) => {
  const [items, rest = ""] = a.split(/=(.*)/s);
  const [file, url] = rest.split(/@(.*)/s);
  if (!file || !Number(items)) throw new Error(`expected ITEMS=FILE[@DATABASE_URL], got '${a}'`);
  return { items: Number(items), file, url: url || "file:" + file };
});

console.log(`# Stepwise page benchmark — ${new Date().toISOString()}`);
console.log(
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
const grown: { provider: string; items: number; rows: RouteFigures[] }[] = [];
for (const s of stores) {
  const provider = s.url.startsWith("postgres") ? "PostgreSQL" : "SQLite";
  const server = await startServer(s.url, PORT);
  try {
    const routes = routesFor(s.file);
    const rows = await benchRoutes(PORT, routes, requests);
    printRoutes(`${s.items.toLocaleString("en")} items per run, 2 runs (${provider})`, rows);
    grown.push({ provider, items: s.items, rows });
    if (process.env.BENCH_BROWSER !== "off")
      printBrowser(
        `${s.items.toLocaleString("en")} items`,
        await browserFigures(
          `http://127.0.0.1:${PORT}`,
          routes.filter((r) => BROWSER_PAGES.includes(r.name)),
        ),
      );
  } finally {
    server.kill();
  }
}
printGrowth(grown);
