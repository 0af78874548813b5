import { expect, test } from "@playwright/test";
import { COMPARE_PAGE_SIZE } from "../../lib/url/compare";

const A = "sim-alpha-8b__lb3-r1_10-mixed__demo";
const B = "sim-epsilon-32b__lb3-r1_10-mixed__demo";
const C = "sim-beta-3b__lb3-r1_10-mixed__demo";

const num = async (loc: import("@playwright/test").Locator) => Number(await loc.getAttribute("data-count"));

test("compare two runs: paired table, McNemar p, items linking to both generations", async ({ page }) => {
  await page.goto(`/compare?runs=${A},${B}`);
  const table = page.getByTestId("paired-table");
  await expect(table).toBeVisible();
  const cells = await Promise.all(["cell-both", "cell-only-a", "cell-only-b", "cell-neither"].map((id) => num(page.getByTestId(id))));
  for (const c of cells) expect(Number.isInteger(c)).toBe(true);
  const shared = Number((await table.locator("caption").innerText()).match(/(\d+) shared/)![1]);
  expect(cells.reduce((a, b) => a + b, 0)).toBe(shared);
  await expect(page.getByTestId("mcnemar-p")).toHaveText(/^p (= \d|< 0\.0001)/);
  await expect(page.getByTestId("divergence-shift")).toBeVisible();
  await expect(page.getByTestId("length-deltas").locator("tbody tr").first()).toBeVisible();

  // Discordant items, regressions first; each row links to both generations.
  const rows = page.getByTestId("compare-item");
  // The item list is paged: the first page holds the first COMPARE_PAGE_SIZE discordant items.
  await expect(rows).toHaveCount(Math.min(COMPARE_PAGE_SIZE, cells[1] + cells[2]));
  const links = rows.first().getByRole("link");
  await expect(links.nth(0)).toHaveAttribute("href", new RegExp(`^/runs/${A}/items/`));
  await expect(links.nth(1)).toHaveAttribute("href", new RegExp(`^/runs/${B}/items/`));
  if (cells[1] > 0) await expect(rows.first()).toContainText("regression");
  await page.screenshot({ path: "tests/output/compare.png", fullPage: true });

  await page.getByTestId("compare-show").getByRole("link", { name: "Improvements" }).click();
  await expect(page).toHaveURL(/show=improvements/);
  await expect(page.getByTestId("compare-item")).toHaveCount(Math.min(COMPARE_PAGE_SIZE, cells[2]));
  await page.getByTestId("toggle-compare-answer").getByRole("link", { name: "Last answer" }).click();
  await expect(page).toHaveURL(/answer=last/);
  await page.reload();
  await expect(page.getByTestId("toggle-compare-answer").locator('[aria-current="true"]')).toHaveText(/Last answer/);
  await page.getByTestId("compare-show").getByRole("link", { name: "All" }).click();
  await expect(page).toHaveURL(/show=all/);
  await page.getByTestId("compare-item").first().getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/runs/${A}/items/`));
});

test("compare: one run asks for two; three runs compare pairwise against the baseline", async ({ page }) => {
  await page.goto(`/compare?runs=${A}`);
  await expect(page.getByText("Select at least two runs")).toBeVisible();
  await page.goto(`/compare?runs=${A},${B},${C}`);
  const overview = page.getByTestId("pair-overview");
  await expect(overview.locator("tbody tr")).toHaveCount(2);
  // two tests against one baseline: each p is Holm-adjusted beside the raw one (×2 for the smaller, then monotone)
  const raw = (await overview.getByTestId("overview-p").evaluateAll((els) => els.map((e) => e.getAttribute("data-p")))).map(Number);
  const holm = (await overview.getByTestId("overview-holm").evaluateAll((els) => els.map((e) => e.getAttribute("data-p")))).map(Number);
  const [lo, hi] = raw[0] <= raw[1] ? [0, 1] : [1, 0];
  expect(holm[lo]).toBeCloseTo(Math.min(1, 2 * raw[lo]), 12);
  expect(holm[hi]).toBeCloseTo(Math.max(holm[lo], Math.min(1, raw[hi])), 12);
  await overview.getByRole("link", { name: "Sim-Beta-3B" }).click();
  await expect(page).toHaveURL(/vs=2/);
  await expect(page.getByRole("heading", { name: /B: Sim-Beta-3B/ })).toBeVisible();
});

test("compare: runs on different items are flagged", async ({ page }) => {
  await page.goto(`/compare?runs=${A},sim-alpha-8b__lb3-r1_10-mixed__2026-06-01`);
  await expect(page.getByTestId("item-set-warning")).toContainText("only in A");
});
