import { expect, test, type Locator, type Page } from "@playwright/test";

// The charts arrive drawn in the server's HTML, follow the system theme, export, and fit their
// width; screenshots of every chart view at 1280 and 390 px, light and dark, go to
// tests/output/. What their marks and intervals say: chart-marks.spec.ts.

const A = "sim-alpha-8b__lb3-r1_10-mixed__demo";
const B = "sim-epsilon-32b__lb3-r1_10-mixed__demo";

/**
 * Drawn polylines (M x,y L x,y …) of one series in the raw HTML. React streams long markup in
 * segments that may follow the figure in the document, so the whole response is searched.
 */
function drawnPaths(html: string, series: string, kind?: string): number {
  const re = new RegExp(`<path d="M-?[\\d.]+,-?[\\d.]+L[^"]*"[^>]*data-series="${series}"${kind ? ` data-kind="${kind}"` : ""}`, "g");
  return (html.match(re) ?? []).length;
}

test("server HTML of /curves and /runs/{key} already holds the drawn charts", async ({ request }) => {
  const curves = await (await request.get(`/curves?runs=${A},${B}`)).text();
  // Accuracy lines and step curves (a(i), s(i), p̂^i) of both runs, in both renderings.
  for (const key of [A, B]) {
    expect(drawnPaths(curves, key)).toBeGreaterThanOrEqual(2 * 4);
    expect(drawnPaths(curves, key, "task")).toBe(2);
  }
  expect(curves).toContain('data-testid="accuracy-by-length-chart"');
  expect(curves).toContain('data-chart-svg="wide"');
  expect(curves).not.toContain("data-chart-placeholder");
  const run = await (await request.get(`/runs/${A}`)).text();
  expect(drawnPaths(run, A, "task")).toBe(2);
  expect(drawnPaths(run, A)).toBeGreaterThanOrEqual(2 * 5);
  const failures = await (await request.get(`/runs/${A}?tab=failures`)).text();
  expect(failures).toContain('data-testid="failure-modes-by-length-chart"');
  expect(failures).toMatch(/data-share="0\.\d{4}"/);
  const sc = await (await request.get("/self-conditioning")).text();
  expect(sc).toMatch(/data-testid="self-conditioning-chart"/);
  expect(sc).toMatch(/<line [^>]*stroke-dasharray="8 4"[^>]*data-series="/);
});

test("a chart exports as SVG (colours resolved, title, legend) and as PNG", async ({ page }) => {
  await page.goto(`/curves?runs=${A},${B}`);
  const chart = page.getByTestId("accuracy-by-length-chart");
  await chart.getByTestId("chart-export").locator("summary").click();
  const [svgDownload] = await Promise.all([page.waitForEvent("download"), chart.getByRole("button", { name: "SVG" }).click()]);
  expect(svgDownload.suggestedFilename()).toBe("accuracy-by-length.svg");
  const svg = await (await import("node:fs/promises")).readFile((await svgDownload.path())!, "utf8");
  expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  expect(svg).toContain("Accuracy by length");
  expect(svg).toContain("Length (steps)");
  expect(svg).toContain("95% Wilson interval");
  expect(svg).not.toContain("var(--");
  const [pngDownload] = await Promise.all([page.waitForEvent("download"), chart.getByRole("button", { name: "PNG" }).click()]);
  expect(pngDownload.suggestedFilename()).toBe("accuracy-by-length.png");
  const png = await (await import("node:fs/promises")).readFile((await pngDownload.path())!);
  expect(png.subarray(1, 4).toString()).toBe("PNG");
  expect(png.length).toBeGreaterThan(5_000);
});

async function seriesStroke(page: Page): Promise<string> {
  return page
    .getByTestId("accuracy-by-length-chart")
    .locator('svg[data-chart-svg="wide"] path[data-series]')
    .first()
    .evaluate((el) => getComputedStyle(el).stroke);
}

test("chart colours follow the system theme", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(`/curves?runs=${A},${B}`);
  const light = await seriesStroke(page);
  const lightInk = await page
    .getByTestId("accuracy-by-length-chart")
    .locator('svg[data-chart-svg="wide"] text')
    .first()
    .evaluate((el) => getComputedStyle(el).fill);
  await page.emulateMedia({ colorScheme: "dark" });
  const dark = await seriesStroke(page);
  const darkInk = await page
    .getByTestId("accuracy-by-length-chart")
    .locator('svg[data-chart-svg="wide"] text')
    .first()
    .evaluate((el) => getComputedStyle(el).fill);
  expect(light).toMatch(/^rgb/);
  expect(dark).toMatch(/^rgb/);
  expect(dark).not.toBe(light);
  expect(darkInk).not.toBe(lightInk);
  // Dark text is light: its channels are high.
  const channels = darkInk.match(/\d+/g)!.map(Number);
  expect(Math.min(...channels.slice(0, 3))).toBeGreaterThan(150);
});

test("one colour and marker per model, the same on every view", async ({ page }) => {
  await page.goto("/self-conditioning");
  const legend = page.getByTestId("self-conditioning-chart").locator("li[data-style]");
  const count = await legend.count();
  const styles = await legend.evaluateAll((els) => els.map((e) => e.getAttribute("data-style")));
  const models = styles.slice(0, count - 1);
  expect(new Set(models).size).toBe(models.length);
  // The same model on /curves: same pair whatever else is selected.
  await page.goto(`/curves?runs=${A}`);
  const alone = await page.getByTestId("accuracy-by-length-chart").locator("li[data-style]").first().getAttribute("data-style");
  await page.goto(`/curves?runs=${B},${A}`);
  const withOther = await page.getByTestId("accuracy-by-length-chart").locator("li[data-style]").nth(1).getAttribute("data-style");
  expect(withOther).toBe(alone);
});

test("step chart toggles write the URL; horizons carry their numbers", async ({ page }) => {
  await page.goto(`/curves?runs=${A},${B}`);
  const chart = page.getByTestId("step-curves-chart").locator('svg[data-chart-svg="wide"]');
  await expect(chart.locator('path[data-kind="step"]')).toHaveCount(2);
  await expect(chart.locator("[data-horizons] text").first()).toHaveText(/^(H₀\.₅|H₀\.₈|predicted) (≥ )?\d/);
  // A horizon is a whole number of steps: its label is the stored value as the run's card writes it ("28", not "28.0").
  const metrics = await (await page.request.get(`/api/v1/runs/${A}/metrics`)).json();
  const labels = chart.locator(`[data-horizons="${A}"] text`);
  for (const [i, name, h] of [
    [0, "H₀.₅", metrics.horizon],
    [1, "H₀.₈", metrics.horizon_80],
  ] as const)
    await expect(labels.nth(i)).toHaveText(`${name} ${h.censored ? "≥ " : ""}${h.steps}`);
  await page.getByTestId("toggle-step").getByRole("link", { name: "Hidden" }).click();
  await expect(page).toHaveURL(/nostep=1/);
  await expect(chart.locator('path[data-kind="step"]')).toHaveCount(0);
  await page.getByTestId("toggle-horizons").getByRole("link", { name: "Hidden" }).click();
  await expect(page).toHaveURL(/nostep=1&nohz=1|nohz=1.*nostep=1/);
  await expect(chart.locator("[data-horizons]")).toHaveCount(0);
  await page.getByTestId("toggle-pred").getByRole("link", { name: "Hidden" }).click();
  await expect(page).toHaveURL(/nopred=1/);
  await expect(chart.locator('path[data-kind="predicted"]')).toHaveCount(0);
  await expect(chart.locator('path[data-kind="task"]')).toHaveCount(2);
});

/** Hovers the plot near its floor at the x of `anchor` (an element of the drawing) and returns the tooltip's text. */
async function tipBelow(page: Page, svg: Locator, anchor: Locator): Promise<string> {
  await svg.scrollIntoViewIfNeeded();
  const at = (await anchor.boundingBox())!;
  const plot = (await svg.locator("rect[data-columns]").boundingBox())!;
  await page.mouse.move(at.x + at.width / 2, plot.y + plot.height * 0.97);
  const tip = page.getByRole("tooltip");
  await expect(tip).toBeVisible();
  return (await tip.textContent()) ?? "";
}

for (const [width, kind] of [
  [1280, "wide"],
  [390, "narrow"],
] as const) {
  test(`at ${width} px a chart's tooltip is the column under the pointer (one list of texts per chart, not per drawing)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    // Horizon markers carry tooltips of their own: hidden, every x of the step chart is a column.
    await page.goto(`/curves?runs=${A},${B}&nohz=1`);
    const html = await page.content();
    // The column texts travel once, as the client leaf's prop, not as attributes of each drawing.
    expect(html).not.toMatch(/<rect[^>]*data-tip="Step /);
    const steps = page.getByTestId("step-curves-chart").locator(`svg[data-chart-svg="${kind}"]`);
    for (const tick of ["20", "40"]) {
      const label = steps.locator(".chart-axes text[text-anchor='middle']", { hasText: new RegExp(`^${tick}$`) });
      const text = await tipBelow(page, steps, label);
      expect(text).toMatch(new RegExp(`^Step ${tick}\\b`));
      expect(text).toMatch(/Sim-Alpha-8B: a\(i\) \d+\.\d%/);
      expect(text).toMatch(/Sim-Epsilon-32B: a\(i\) \d+\.\d%/);
    }
    // Below a marker of the accuracy chart (the second length: high accuracy, far from the floor).
    const accuracy = page.getByTestId("accuracy-by-length-chart").locator(`svg[data-chart-svg="${kind}"]`);
    const mark = accuracy.locator("a.chart-link").nth(1);
    const length = /length (\d+)/.exec((await mark.getAttribute("aria-label"))!)![1];
    expect(await tipBelow(page, accuracy, mark)).toMatch(new RegExp(`^Length ${length} `));
    await page.mouse.move(0, 0);
    await expect(page.getByRole("tooltip")).toHaveCount(0);
  });
}

const VIEWS: [string, string][] = [
  ["curves", `/curves?runs=${A},${B}&answer=both`],
  ["run-curves", `/runs/${A}`],
  ["run-failures", `/runs/${A}?tab=failures`],
  ["self-conditioning", "/self-conditioning"],
  ["compare", `/compare?runs=${A},${B}`],
];

for (const width of [1280, 390]) {
  test(`chart views at ${width} px, light and dark: the fitting rendering shows, text stays legible`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    for (const [name, url] of VIEWS) {
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(url);
        const svgs = page.locator("figure.chart svg.chart-svg:visible");
        if (name !== "compare") {
          // The page streams: wait for its charts to arrive before counting them.
          await expect(svgs.first()).toBeVisible();
          expect(await svgs.count()).toBeGreaterThan(0);
          const kinds = await svgs.evaluateAll((els) => els.map((e) => e.getAttribute("data-chart-svg")));
          for (const k of kinds) expect(k).toBe(width < 600 ? "narrow" : "wide");
          // Tick labels render at ≥ 10 px on screen in either rendering.
          const h = await svgs
            .first()
            .locator("text")
            .first()
            .evaluate((el) => el.getBoundingClientRect().height);
          expect(h).toBeGreaterThanOrEqual(10);
          // No chart makes the page scroll sideways.
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width + 1);
        }
        await page.screenshot({ path: `tests/output/charts-${name}-${width}-${scheme}.png`, fullPage: true });
      }
    }
  });
}

test("leaderboard sparklines draw each run in its model's colour and marker, as the curves do", async ({ page }) => {
  const stroke = (el: Element) => getComputedStyle(el).stroke;
  await page.goto(`/curves?runs=${A},${B}`);
  const curves = page.getByTestId("accuracy-by-length-chart").locator('svg[data-chart-svg="wide"]');
  const want = [await curves.locator(`path[data-series="${A}"]`).first().evaluate(stroke)];
  want.push(await curves.locator(`path[data-series="${B}"]`).first().evaluate(stroke));
  const markers = await page
    .getByTestId("accuracy-by-length-chart")
    .locator("li[data-style]")
    .evaluateAll((els) => els.slice(0, 2).map((e) => e.getAttribute("data-style")!.split(" ")[1]));
  await page.goto("/?demo=1&benchmark=procedural-arith&pageSize=100");
  const spark = (key: string) => page.getByTestId("leaderboard-row").locator(`svg[data-series="${key}"]`);
  await expect(spark(A)).toBeVisible();
  const got = [await spark(A).locator("path").first().evaluate(stroke), await spark(B).locator("path").first().evaluate(stroke)];
  expect(got[0]).toMatch(/^rgb/);
  expect(got[0]).not.toBe(got[1]);
  expect(got).toEqual(want);
  expect([await spark(A).getAttribute("data-marker"), await spark(B).getAttribute("data-marker")]).toEqual(markers);
});

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const width of [1280, 390]) {
  test(`at ${width} px the ⤓ export button has its own space: it covers no chart or legend`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const url of [`/curves?runs=${A},${B}`, `/runs/${A}`, `/runs/${A}?tab=failures`, "/self-conditioning"]) {
      await page.goto(url);
      const figures = page.locator("figure.chart");
      await expect(figures.first().locator("svg.chart-svg:visible")).toBeVisible();
      for (const figure of await figures.all()) {
        const button = (await figure.getByTestId("chart-export").locator("summary").boundingBox())!;
        const plot = (await figure.locator("svg.chart-svg:visible").boundingBox())!;
        expect(overlaps(button, plot), `${url}: export button over the chart`).toBe(false);
        const legend = figure.locator(".chart-legend");
        if (await legend.count()) expect(overlaps(button, (await legend.boundingBox())!), `${url}: over the legend`).toBe(false);
      }
    }
  });
}
