import { expect, test } from "@playwright/test";

// Charts, the compare lists and the raw output are client components that the server renders
// (docs/decisions.md, "Charts are client components, rendered on the server"): the browser
// renders them again while hydrating, and any difference between the two (a rounding, a locale,
// a clock) is a hydration error that throws the server's markup away. Each view must hydrate
// with no error and keep the elements the server sent.

const A = "sim-alpha-8b__lb3-r1_10-mixed__demo";
const B = "sim-epsilon-32b__lb3-r1_10-mixed__demo";

const VIEWS: { url: string; regions: string }[] = [
  { url: `/curves?runs=${A},${B}&answer=both`, regions: "svg.chart-svg" },
  { url: `/curves?runs=${A},${B}&x=log&nopred=1`, regions: "svg.chart-svg" },
  { url: `/runs/${A}`, regions: "svg.chart-svg" },
  { url: `/runs/${A}?tab=failures`, regions: "svg.chart-svg" },
  { url: "/self-conditioning", regions: "svg.chart-svg" },
  { url: `/compare?runs=${A},${B}`, regions: '[data-testid="compare-items"], [data-testid="length-deltas"]' },
  { url: `/compare?runs=${A},${B}&show=all&page=2`, regions: '[data-testid="compare-items"]' },
  { url: "/study?benchmark=procedural-arith&series=all", regions: "svg.chart-svg" },
  // model output with markup in it (tests/e2e/fixtures/hostile.jsonl), and a multi-turn one
  { url: `/runs/e2e-hostile__arith/items/${encodeURIComponent("evil-<1>")}`, regions: '[data-testid="raw-output"]' },
  { url: "/runs/sim-alpha-8b__dict100-k1-multi__2026-06-01/items/mt-0001", regions: '[data-testid="raw-output"]' },
];

for (const { url, regions } of VIEWS) {
  test(`${url} hydrates what the server sent, with no error`, async ({ page, request }) => {
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    const served = await (await request.get(url)).text();
    await page.goto(url);
    // Hydrated once React has attached its fibre to every region.
    await page.waitForFunction((sel) => {
      const els = [...document.querySelectorAll(sel)];
      return els.length > 0 && els.every((e) => Object.keys(e).some((k) => k.startsWith("__reactFiber")));
    }, regions);
    // Elements in each region: of the live page, or of the served HTML when given it.
    const count = (html: string | null) =>
      page.evaluate(
        ({ html, sel }) => {
          const root = html === null ? document : new DOMParser().parseFromString(html, "text/html");
          return [...root.querySelectorAll(sel)].map((e) => e.querySelectorAll("*").length);
        },
        { html, sel: regions },
      );
    const live = await count(null);
    const sent = await count(served);
    expect(live.length).toBeGreaterThan(0);
    expect(live).toEqual(sent);
    expect(errors).toEqual([]);
  });
}
