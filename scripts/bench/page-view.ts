// The server's CPU for one page view in a real browser: the page's own request and everything
// the browser asks for after it — Next's prefetches of the links that enter the viewport above
// all (docs/performance.md, "Pages and API", stop 52). Starts `next start` on the built .next,
// opens each path in Chromium 5 times (one context, its cache warm), scrolls to the end, waits until
// every request has been answered and none made for a second, and reads the server process's
// CPU ticks around that; prints the median and the RSC requests of a view.
//   DATABASE_URL=file:/path/store.db npx --no-install tsx scripts/bench/page-view.ts /about '/runs/KEY?tab=items'
// PAGE_VIEW_URLS=1 lists each request as it is made.
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS } from "./browser";
import { startServer } from "./pages";
import { processTicks, TICKS_PER_SECOND } from "./server-cpu";

const PORT = Number(process.env.BENCH_PORT ?? 3920);
const VIEWS = Number(process.env.PAGE_VIEWS ?? 5);
const paths = process.argv.slice(2);
if (paths.length === 0) throw new Error("give the paths to open, e.g. /about /runs/KEY");

const server = await startServer(process.env.DATABASE_URL ?? "file:data/stepwise.db", PORT);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
// one context for every view: its HTTP cache holds the app's scripts and styles after the
// warm-up, as a researcher's browser does after the first page
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const ticks = () => processTicks(server.pid!)!.ticks;

/** One view of `path`: the server's CPU in ms and the RSC requests (prefetches and navigations) the page made. */
async function view(path: string): Promise<{ ms: number; rsc: number }> {
  const page = await context.newPage();
  let rsc = 0;
  let inFlight = 0;
  let last = Date.now();
  page.on("request", (r) => {
    inFlight++;
    last = Date.now();
    if (r.headers()["rsc"]) rsc++;
    if (process.env.PAGE_VIEW_URLS)
      console.log(`  ${r.headers()["rsc"] ? "RSC" : r.resourceType()} ${r.url().replace(/^https?:\/\/[^/]+/, "")}`);
  });
  const settled = () => {
    inFlight--;
    last = Date.now();
  };
  page.on("requestfinished", settled);
  page.on("requestfailed", settled);
  const t0 = ticks();
  await page.goto(`http://127.0.0.1:${PORT}${path}`, { waitUntil: "load" });
  await page.mouse.wheel(0, 100_000);
  while (inFlight > 0 || Date.now() - last < 1000) await page.waitForTimeout(200);
  const ms = ((ticks() - t0) * 1000) / TICKS_PER_SECOND;
  await page.close();
  return { ms, rsc };
}

try {
  for (const p of paths) await view(p); // warm up
  console.log(`| path | server CPU ms per view (median of ${VIEWS}) | RSC requests per view | views |\n|---|---:|---:|---|`);
  for (const p of paths) {
    const views: { ms: number; rsc: number }[] = [];
    for (let i = 0; i < VIEWS; i++) views.push(await view(p));
    const ms = views.map((v) => v.ms).sort((a, b) => a - b);
    const mid = Math.floor(views.length / 2);
    console.log(`| ${p} | ${ms[mid].toFixed(0)} | ${views[mid].rsc} | ${views.map((v) => v.ms.toFixed(0)).join(" ")} |`);
  }
} finally {
  await browser.close();
  server.kill();
}
