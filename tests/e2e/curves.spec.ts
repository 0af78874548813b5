import { expect, test } from "@playwright/test";

const A = "sim-alpha-8b__lb3-r1_10-mixed__demo";
const B = "sim-epsilon-32b__lb3-r1_10-mixed__demo";

test("curves: two runs from the URL, toggles write the URL, reload and a fresh context show the same", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.goto(`/curves?runs=${A},${B}`);
  await expect(page.getByTestId("selected-run")).toHaveCount(2);
  const acc = page.getByTestId("accuracy-by-length-chart");
  await expect(acc.locator('svg[data-chart-svg="wide"]')).toBeVisible();
  await expect(page.getByTestId("step-curves-chart").locator('svg[data-chart-svg="wide"]')).toBeVisible();
  await expect(page.getByTestId("curves-summary").locator("tbody tr")).toHaveCount(2);
  await expect(page.getByTestId("horizon-vs-size-chart")).toBeVisible();

  await page.getByTestId("toggle-answer").getByRole("link", { name: "Both" }).click();
  await expect(page).toHaveURL(/answer=both/);
  await page.getByTestId("toggle-x").getByRole("link", { name: "Log" }).click();
  await expect(page).toHaveURL(/answer=both/);
  await expect(page).toHaveURL(/x=log/);
  await expect(page.getByTestId("toggle-x").locator('[aria-current="true"]')).toHaveText(/Log/);
  await expect(acc.locator('svg[data-chart-svg="wide"]').getByText("length (steps, log scale)", { exact: false })).toBeVisible();

  await page.reload();
  await expect(page.getByTestId("toggle-answer").locator('[aria-current="true"]')).toHaveText(/Both/);
  await expect(page.getByTestId("toggle-x").locator('[aria-current="true"]')).toHaveText(/Log/);
  await expect(page.getByTestId("selected-run")).toHaveCount(2);
  await expect(acc.locator('svg[data-chart-svg="wide"]')).toBeVisible();
  await page.screenshot({ path: "tests/output/curves.png", fullPage: true });

  // The shared link opens the same screen in a new browser context.
  const url = page.url();
  const ctx = await browser.newContext();
  const other = await ctx.newPage();
  await other.goto(url);
  await expect(other.getByTestId("toggle-x").locator('[aria-current="true"]')).toHaveText(/Log/);
  await expect(other.getByTestId("selected-run")).toHaveCount(2);
  await ctx.close();

  // Clicking a point opens that run's items at that length.
  const point = acc.locator("a[href*='tab=items']").first();
  const href = await point.getAttribute("href");
  expect(href).toMatch(/^\/runs\/[^?]+\?tab=items&minLen=\d+&maxLen=\d+$/);
  // Points are links: reachable from the keyboard (and a mouse click does the same).
  await point.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/runs\/.+tab=items&minLen=\d+&maxLen=\d+/);
});

test("curves: adding and removing runs writes the URL; empty state", async ({ page }) => {
  await page.goto("/curves");
  await expect(page.getByText("Select runs to draw their curves")).toBeVisible();
  await page.getByTestId("add-run").selectOption(A);
  await expect(page).toHaveURL(new RegExp(`runs=${A}$`));
  await page.getByTestId("add-run").selectOption(B);
  await expect(page).toHaveURL(new RegExp(`runs=${A},${B}`));
  await expect(page.getByTestId("selected-run")).toHaveCount(2);
  await page.getByRole("button", { name: /^Remove Sim-Alpha-8B/ }).click();
  await expect(page).toHaveURL(new RegExp(`runs=${B}$`));
  await expect(page.getByTestId("selected-run")).toHaveCount(1);
});

test("self-conditioning: chart, slopes, model filter in the URL", async ({ page }) => {
  await page.goto("/self-conditioning");
  await expect(page.getByTestId("self-conditioning-chart").locator('svg[data-chart-svg="wide"]')).toBeVisible();
  const rows = page.getByTestId("slope-table").locator("tbody tr");
  await expect(rows.nth(1)).toBeVisible();
  await expect(rows.first()).toContainText(/−?-?0\.\d{3}/);
  // a slope is marked as a drop only where its 95% CI lies below 0
  for (const row of await rows.all()) {
    const ci = (await row.getByTestId("slope-ci").innerText()).match(/-?\d+\.\d+/g)!.map(Number);
    await expect(row.getByTestId("slope")).toHaveAttribute("data-drop", ci[1] < 0 ? "yes" : "no");
  }
  // model names stay on one line (real quantised names are long: "Qwen3.5-122B-A10B-Q3"); the note wraps instead
  expect(
    await rows
      .first()
      .locator("td")
      .first()
      .evaluate((td) => getComputedStyle(td).whiteSpace),
  ).toBe("nowrap");
  const drops = await page.getByTestId("slope").evaluateAll((cells) => cells.map((c) => c.getAttribute("data-drop")));
  expect(drops).toContain("yes");
  expect(drops).toContain("no");
  await page.getByTestId("model-filter").getByRole("link", { name: "Sim-Alpha-8B" }).click();
  await expect(page).toHaveURL(/models=Sim-Alpha-8B/);
  for (const t of await rows.allInnerTexts()) expect(t).toContain("Sim-Alpha-8B");
  await page.screenshot({ path: "tests/output/self-conditioning.png", fullPage: true });
});
