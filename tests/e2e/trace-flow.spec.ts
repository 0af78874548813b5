import { expect, test } from "@playwright/test";

// The main researcher flow: leaderboard → sort → run → failed items → a generation with
// its first divergence → share the link → a fresh browser shows the same screen.

const shot = (name: string) => `tests/output/${name}.png`;

test("leaderboard → run → failed item → trace diff → shared link", async ({ page, browser, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);

  await page.goto("/?benchmark=procedural-arith&family=SimModel");
  await expect(page.getByRole("heading", { name: "Leaderboard" })).toBeVisible();
  await expect(page.getByTestId("leaderboard-row").first()).toBeVisible();
  await page.screenshot({ path: shot("leaderboard"), fullPage: true });

  // Sort by H0.5, worst first: the URL carries the sort.
  const h50Header = page.locator('a[data-sort-key="h50"]');
  await h50Header.click();
  await expect(page).toHaveURL(/sort=h50&dir=asc/);
  await expect(page.locator('th[aria-sort="ascending"]')).toContainText("H");
  const values = await page.getByTestId("h50").allInnerTexts();
  const numbers = values.map((v) => Number(v.replace(/[^\d.]/g, "")));
  expect(numbers).toEqual([...numbers].sort((a, b) => a - b));

  // Open the weakest run, its items, failed only.
  await page.getByTestId("leaderboard-row").first().getByTestId("run-link").click();
  await expect(page).toHaveURL(/\/runs\//);
  await expect(page.getByTestId("run-summary")).toBeVisible();
  await page.screenshot({ path: shot("run-curves"), fullPage: true });
  await page.locator('a[data-tab="items"]').click();
  await expect(page).toHaveURL(/tab=items/);
  await page.getByTestId("filter-failed").check();
  await expect(page).toHaveURL(/failed=1/);
  const rows = page.getByTestId("item-row");
  await expect(rows.first()).toBeVisible();
  for (const text of await rows.allInnerTexts()) expect(text).toContain("wrong");
  await page.screenshot({ path: shot("run-items-failed"), fullPage: true });

  // Open a failed generation that has a divergence.
  const withDivergence = rows.filter({ hasText: /step \d+/ }).first();
  await withDivergence.getByTestId("item-link").click();
  await expect(page).toHaveURL(/\/items\//);
  const callout = page.getByTestId("divergence-callout");
  await expect(callout).toContainText(/First divergence at step \d+: (slip|propagated|missing)/);
  const firstRow = page.locator('tr[data-first-divergence="true"]');
  await expect(firstRow).toBeVisible();
  await expect(firstRow).toContainText("first divergence");
  await expect(firstRow).toContainText(/slip|propagated|missing/);
  const calloutText = await callout.innerText();
  const title = await page.getByRole("heading", { level: 1 }).innerText();
  await page.screenshot({ path: shot("generation"), fullPage: true });

  // Copy the link; open it in a fresh context.
  await page.getByTestId("copy-link").click();
  await expect(page.getByTestId("copy-link")).toContainText(/copied|manually/i);
  const copied = await page.evaluate(() => navigator.clipboard.readText()).catch(() => page.url());
  expect(copied).toBe(page.url());

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(copied);
  await expect(other.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(other.getByTestId("divergence-callout")).toHaveText(calloutText);
  await expect(other.locator('tr[data-first-divergence="true"]')).toBeVisible();
  await fresh.close();
});

test("the item filters live in the URL and survive a reload", async ({ page }) => {
  await page.goto("/?benchmark=procedural-arith&family=SimModel&sort=h50&dir=asc");
  await page.getByTestId("leaderboard-row").first().getByTestId("run-link").click();
  await page.locator('a[data-tab="items"]').click();
  await page.getByLabel("Failure mode").selectOption("slip");
  await expect(page).toHaveURL(/mode=slip/);
  await page.getByLabel("First divergence").fill("1-20");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/div=1-20/);
  const count = await page.getByTestId("item-count").innerText();
  await page.reload();
  await expect(page.getByTestId("item-count")).toHaveText(count);
  await expect(page.getByLabel("Failure mode")).toHaveValue("slip");
  await expect(page.getByLabel("First divergence")).toHaveValue("1-20");
});
