import { expect, test } from "@playwright/test";

test("filters write the URL; exports follow the same URL", async ({ page, request }) => {
  await page.goto("/");
  await page.getByRole("navigation", { name: "Benchmark" }).getByRole("link", { name: "dict-sum" }).click();
  await expect(page).toHaveURL(/benchmark=dict-sum/);
  // One benchmark per table: the rows are dict-sum runs (their variants say so).
  for (const text of await page.getByTestId("leaderboard-row").allInnerTexts()) expect(text).toMatch(/dict100/);
  await page.getByLabel("Thinking", { exact: true }).selectOption("yes");
  await expect(page).toHaveURL(/thinking=yes/);
  await expect(page.getByTestId("leaderboard-row").first()).toContainText("thinking");

  const csvHref = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
  expect(csvHref).toContain("benchmark=dict-sum");
  const csv = await request.get(csvHref!);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const lines = (await csv.text()).trim().split(/\r\n/);
  expect(lines[0]).toMatch(/^run,model,/);
  expect(lines.length - 1).toBe(await page.getByTestId("leaderboard-row").count());
  const json = await request.get((await page.getByRole("link", { name: "Export JSON" }).getAttribute("href"))!);
  const body = (await json.json()) as { rows: { benchmark: string }[] };
  expect(body.rows.every((r) => r.benchmark === "dict-sum")).toBe(true);
});

test("accuracy-at lengths, ties and missing metrics", async ({ page }) => {
  await page.goto("/?at=5,95&benchmark=procedural-arith");
  await expect(page.locator('a[data-sort-key="at:5"]')).toBeVisible();
  await expect(page.locator('a[data-sort-key="at:95"]')).toBeVisible();
  await expect(page.getByText("leader", { exact: true }).first()).toBeVisible();
  // Self-conditioning sweeps are not ranked against length: their own page, linked as a tab.
  await page.goto("/?benchmark=dict-sum&variant=selfcond-k1-t100");
  await expect(page.getByText("No run matches these filters.")).toBeVisible();
  await page
    .getByRole("navigation", { name: "Benchmark" })
    .getByRole("link", { name: /Self-conditioning sweeps/ })
    .click();
  await expect(page).toHaveURL(/\/self-conditioning$/);
});

test("phone width: leaderboard and generation stay usable", async ({ browser }) => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await ctx.newPage();
  await page.goto("/?benchmark=procedural-arith");
  await expect(page.getByTestId("leaderboard-row").first()).toBeVisible();
  await page.screenshot({ path: "tests/output/leaderboard-phone.png", fullPage: true });
  await page.goto("/runs/sim-alpha-8b__lb3-r1_10-mixed__2026-06-01/items/alpha-0015");
  await expect(page.getByTestId("divergence-callout")).toBeVisible();
  await page.screenshot({ path: "tests/output/generation-phone.png", fullPage: true });
  await ctx.close();
});
