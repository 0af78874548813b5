// Browser figures of a running server in Chromium: largest contentful paint, long tasks
// (main-thread work ≥ 50 ms, the cause of jank) from navigation to load + 1 s, and the
// JavaScript the page actually fetched (gzip as served by `next start`, dynamic chunks
// included).
import { chromium } from "playwright-core";

export interface BrowserFigure {
  name: string;
  lcpMs: number;
  longTasks: number;
  longTaskMs: number;
  jsKb: number;
  domNodes: number;
}

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export async function browserFigures(base: string, pages: { name: string; path: string }[], runs = 5): Promise<BrowserFigure[]> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  const out: BrowserFigure[] = [];
  try {
    for (const p of pages) {
      const samples: BrowserFigure[] = [];
      for (let i = 0; i < runs; i++) {
        const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
        const page = await context.newPage();
        await page.addInitScript(() => {
          const w = window as unknown as { __lcp: number; __long: number[] };
          w.__lcp = 0;
          w.__long = [];
          new PerformanceObserver((l) => l.getEntries().forEach((e) => (w.__lcp = e.startTime))).observe({
            type: "largest-contentful-paint",
            buffered: true,
          });
          new PerformanceObserver((l) => l.getEntries().forEach((e) => w.__long.push(e.duration))).observe({
            type: "longtask",
            buffered: true,
          });
        });
        await page.goto(base + p.path, { waitUntil: "load" });
        await page.waitForTimeout(1000);
        const f = await page.evaluate(() => {
          const w = window as unknown as { __lcp: number; __long: number[] };
          const js = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((r) => r.name.endsWith(".js"));
          return {
            lcpMs: w.__lcp,
            longTasks: w.__long.length,
            longTaskMs: w.__long.reduce((t, d) => t + d, 0),
            jsKb: js.reduce((t, r) => t + r.encodedBodySize, 0) / 1024,
            domNodes: document.getElementsByTagName("*").length,
          };
        });
        samples.push({ name: p.name, ...f });
        await context.close();
      }
      // the median run by LCP: one cold first run (server caches, fonts) should not decide it
      samples.sort((a, b) => a.lcpMs - b.lcpMs);
      out.push(samples[Math.floor(samples.length / 2)]);
    }
  } finally {
    await browser.close();
  }
  return out;
}

export function printBrowser(label: string, rows: BrowserFigure[]) {
  console.log(`\n### Browser (Chromium, median of 5 loads): ${label}`);
  console.log("| page | LCP ms | long tasks | long-task ms | JS fetched (gzip kB) | DOM nodes |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const r of rows)
    console.log(
      `| ${r.name} | ${r.lcpMs.toFixed(0)} | ${r.longTasks} | ${r.longTaskMs.toFixed(0)} | ${r.jsKb.toFixed(1)} | ${r.domNodes} |`,
    );
}
