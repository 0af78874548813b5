import { expect, test, type Page } from "@playwright/test";

// The study view on the seeded store (demo runs and the example files): presets, URL state,
// the click-through from a point to its items, at desktop and phone widths.

const noPageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
/** The elements reaching past the viewport (for the failure message). */
const widest = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((e) => `${e.tagName}.${e.className}`)
      .join(" | "),
  );

test("study: a preset states its paper and our number; its table and chart are drawn", async ({ page }) => {
  await page.goto("/study?demo=all");
  await page.locator('[data-preset="lookback-cost"]').click();
  await expect(page).toHaveURL(/benchmark=procedural-arith/);
  await expect(page).toHaveURL(/x=lookback/);
  await expect(page).toHaveURL(/series=all/);
  await expect(page.locator('[data-preset="lookback-cost"]')).toHaveAttribute("aria-current", "true");
  const note = page.getByTestId("preset-note");
  await expect(note).toContainText("arXiv 2605.00817");
  await expect(note).toContainText("18.43 points");
  await expect(page.getByTestId("preset-ours")).toContainText(/look-back \d+ → \d+: [+-]?\d+\.\d points/);
  await expect(page.getByTestId("study-table").locator("tbody tr")).not.toHaveCount(0);
  await expect(page.getByTestId("study-chart").locator("circle").first()).toBeVisible();
  await expect(page.getByText("each model weighted equally", { exact: false }).first()).toBeVisible();
  await expect(page).toHaveURL(/demo=all/);

  await page.locator('[data-preset="exact-step-by-length"]').click();
  await expect(page).toHaveURL(/metric=exact_step_rate/);
  await expect(page.getByTestId("preset-note")).toContainText("70.88%");
  await expect(page.getByTestId("preset-ours")).toContainText(/%.* at \d+ steps → .*% at \d+ steps/);
  await page.screenshot({ path: "tests/output/study.png", fullPage: true });
});

test("study: demo runs are left out once real runs exist, and one link brings them back", async ({ page }) => {
  await page.goto("/study?benchmark=procedural-arith");
  await expect(page.getByTestId("demo-hidden")).toContainText("demo runs left out");
  const without = await page.getByTestId("study-table").locator("thead th").count();
  await page.getByTestId("demo-hidden").getByRole("link").click();
  await expect(page).toHaveURL(/demo=all/);
  await expect(page.getByTestId("demo-hidden")).toHaveCount(0);
  await expect.poll(() => page.getByTestId("study-table").locator("thead th").count()).toBeGreaterThan(without);
});

test("study: every choice lives in the URL (links, the filter form, reload, a fresh context)", async ({ page, browser }) => {
  await page.goto("/study?benchmark=procedural-arith&demo=all");
  await page.getByTestId("study-x").getByRole("link", { name: "look-back depth" }).click();
  await expect(page).toHaveURL(/x=lookback/);
  await page.getByTestId("study-series").getByRole("link", { name: "family" }).click();
  await expect(page).toHaveURL(/series=family/);
  await expect(page).toHaveURL(/x=lookback/);
  const form = page.getByTestId("study-filters");
  await form.locator('select[name="metric"]').selectOption("under_execution_rate");
  await form.locator('input[name="minSize"]').fill("5");
  await form.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/metric=under_execution_rate/);
  await expect(page).toHaveURL(/minSize=5/);
  const header = (await page.getByTestId("study-table").locator("thead").textContent()) ?? "";

  await page.reload();
  await expect(page.getByTestId("study-series").locator('[aria-current="true"]')).toHaveText(/family/);
  await expect(page.getByTestId("study-x").locator('[aria-current="true"]')).toHaveText(/look-back/);
  await expect(page.getByTestId("study-filters").locator('select[name="metric"]')).toHaveValue("under_execution_rate");
  const ctx = await browser.newContext();
  const other = await ctx.newPage();
  await other.goto(page.url());
  await expect(other.getByTestId("study-table").locator("thead")).toHaveText(header);
  await expect(other.getByTestId("study-filters").locator('input[name="minSize"]')).toHaveValue("5");
  await ctx.close();

  // A pair with no answer says why instead of drawing something wrong.
  await page.goto("/study?benchmark=procedural-arith&x=length&metric=h50&demo=all");
  await expect(page.getByTestId("study-problem")).toContainText("one number per run");
});

test("study: a cell opens its run's items directly, or the list of its runs", async ({ page }) => {
  // Pooled over models: several runs behind a point, so a list first.
  await page.goto("/study?benchmark=procedural-arith&x=lookback&series=all&demo=all");
  await page.getByTestId("study-cell").first().click();
  await expect(page).toHaveURL(/cs=all(\+|%20)models/);
  const list = page.getByTestId("cell-runs");
  await expect(list.locator("li")).not.toHaveCount(0);
  const n = await list.locator("li").count();
  expect(n).toBeGreaterThan(1);
  await list.locator("a").first().click();
  await expect(page).toHaveURL(/\/runs\/[^?]+\?tab=items/);

  // The chart's points are the same links as the table's cells.
  await page.goto("/study?benchmark=procedural-arith&x=lookback&series=all&demo=all");
  const point = page.getByTestId("study-chart").locator("svg:visible [data-testid=study-point] a").first();
  expect(await point.getAttribute("href")).toBe(await page.getByTestId("study-cell").first().getAttribute("href"));
  await point.click();
  await expect(page).toHaveURL(/cs=all(\+|%20)models/);
  await expect(page.getByTestId("cell-runs")).toBeVisible();

  // A point with one run behind it: straight to that run's items at that length.
  await page.goto("/study?benchmark=procedural-arith&x=length&series=model&lookback=5&demo=all");
  const cell = page.locator('a[data-testid="study-cell"][href^="/runs/"]').first();
  await expect(cell).toBeVisible();
  await cell.click();
  await expect(page).toHaveURL(/\/runs\/[^?]+\?tab=items&minLen=\d+&maxLen=\d+/);
  await expect(page.getByRole("table").first()).toBeVisible();
});

test.describe("phone width", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test("study at 390 px: controls wrap, the table scrolls inside its box, the chart fits", async ({ page }) => {
    await page.goto("/study?benchmark=procedural-arith&x=length&series=model&demo=all");
    await expect(page.getByTestId("study-chart").locator("svg:visible").first()).toBeVisible();
    await expect(page.getByTestId("study-table")).toBeVisible();
    expect(await noPageOverflow(page), await widest(page)).toBe(true);
    const box = await page.getByTestId("study-chart").locator("svg:visible").first().boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);
    await page.locator('[data-preset="accuracy-by-length"]').click();
    await expect(page).toHaveURL(/series=all/);
    expect(await noPageOverflow(page)).toBe(true);
    await page.screenshot({ path: "tests/output/study-390.png", fullPage: true });
  });
});

test("study: H₀.₅ of a censored run is a lower bound (≥, hollow), and model size is on a log axis", async ({ page }) => {
  await page.goto("/study?benchmark=dict-sum&x=size&series=thinking&metric=h50&demo=all");
  const censored = page.getByTestId("study-table").locator("[data-testid=study-cell][data-censored]");
  await expect(censored.first()).toBeVisible();
  for (const text of await censored.allTextContents()) expect(text).toMatch(/^≥ \d/);
  for (const text of await page.getByTestId("study-table").locator("[data-testid=study-cell]:not([data-censored])").allTextContents())
    expect(text).not.toContain("≥");
  const chart = page.getByTestId("study-chart");
  await expect(chart.locator("path[data-hollow]").first()).toBeAttached();
  await expect(chart).toContainText("log scale");
  const csv = await (await page.request.get("/study/csv?benchmark=dict-sum&x=size&series=thinking&metric=h50&demo=all")).text();
  expect(csv.split("\n")[0]).toContain("censored");
  expect(csv).toMatch(/,true,/);
});
