import { expect, test } from "@playwright/test";

// What the charts' marks and intervals say: every estimate with its interval (a bar where a band
// cannot be drawn), shares that are not stacked past 100%, and hollow marks (last answers,
// lower bounds) that show what they stand for. How the charts are drawn, exported and themed:
// charts.spec.ts.

const A = "sim-alpha-8b__lb3-r1_10-mixed__demo";
const B = "sim-epsilon-32b__lb3-r1_10-mixed__demo";

test("compare shows intervals on accuracies and on every per-length Δ", async ({ page }) => {
  await page.goto(`/compare?runs=${A},${B}`);
  await expect(page.getByTestId("accuracy-a")).toHaveText(/\d+\.\d% \[\d+\.\d, \d+\.\d\]/);
  await expect(page.getByTestId("accuracy-b")).toHaveText(/\[\d+\.\d, \d+\.\d\]/);
  await expect(page.getByTestId("accuracy-delta")).toContainText("paired 95% CI");
  await expect(page.getByTestId("mcnemar-p")).not.toContainText("= <");
  const cis = await page.getByTestId("length-delta-ci").allInnerTexts();
  expect(cis.length).toBeGreaterThan(0);
  for (const t of cis) expect(t).toMatch(/\[−?-?\d+, −?-?\d+\]/);
});

test("failure modes are not stacked past 100%: a heat map of shares", async ({ page }) => {
  await page.goto(`/runs/${A}?tab=failures`);
  const chart = page.getByTestId("failure-modes-by-length-chart");
  await expect(chart.locator('svg[data-chart-svg="wide"]')).toBeVisible();
  const shares = await chart
    .locator('svg[data-chart-svg="wide"] [data-share]')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-share"))));
  expect(shares.length).toBeGreaterThan(0);
  for (const s of shares) expect(s).toBeLessThanOrEqual(1);
  await expect(chart.getByText("can sum past 100%")).toBeVisible();
  await page.goto("/");
  await expect(page.getByTestId("failure-mode-legend")).toBeVisible();
});

test("hollow markers are filled with the dark card's colour in dark mode, the light one in light mode", async ({ page }) => {
  for (const scheme of ["dark", "light"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`/curves?runs=${A},${B}&answer=both`);
    const chart = page.getByTestId("accuracy-by-length-chart");
    await expect(chart.locator('svg[data-chart-svg="wide"]')).toBeVisible();
    const { fills, card } = await chart.evaluate((fig) => {
      let el: Element | null = fig;
      let card = "";
      while (el && !card) {
        const bg = getComputedStyle(el).backgroundColor;
        if (bg && bg !== "transparent" && !/rgba\(.*, 0\)$/.test(bg)) card = bg;
        el = el.parentElement;
      }
      const hollow = [...fig.querySelectorAll('svg[data-chart-svg="wide"] path[data-hollow], .chart-legend li[data-style$="hollow"] path')];
      return { fills: [...new Set(hollow.map((p) => getComputedStyle(p).fill))], card };
    });
    expect(fills.length, scheme).toBeGreaterThan(0);
    expect(fills, scheme).toEqual([card]);
  }
});

test("accuracy by length: where both answers agree the first answer's mark shows; one length gets its interval as a bar", async ({
  page,
}) => {
  await page.goto(`/runs/${A}`);
  const wide = page.getByTestId("accuracy-by-length-chart").locator('svg[data-chart-svg="wide"]');
  // the last answers' hollow marks are drawn before (under) the first answers' filled ones
  const order = await wide.evaluate((svg) =>
    [...svg.querySelectorAll("a.chart-link > path, g[data-tip] > path")].map((p) => p.hasAttribute("data-hollow")),
  );
  expect(order.filter((h) => h).length).toBeGreaterThan(0);
  expect(order.filter((h) => !h).length).toBeGreaterThan(0);
  expect(order.lastIndexOf(true)).toBeLessThan(order.indexOf(false));
  await expect(wide.locator("[data-interval]")).toHaveCount(0);
  // a self-conditioning sweep is one length: its Wilson interval is a bar, and it has no step-level data to judge clean executions by
  await page.goto("/runs/sim-alpha-8b__selfcond-k1-t100__demo");
  const one = page.getByTestId("accuracy-by-length-chart").locator('svg[data-chart-svg="wide"]');
  await expect(one.locator("[data-interval] path")).toHaveCount(2);
  await expect(page.getByTestId("stat-clean")).toContainText("no step-level data");
  await expect(page.getByTestId("stat-clean")).not.toContainText("exact-step");
  // L80 says why it is missing, as L50 does
  await expect(page.getByTestId("stat-l80")).toContainText("needs ≥ 2 lengths");
  await page.goto(`/runs/${A}`);
  await expect(page.getByTestId("stat-clean")).toContainText(/exact-step \d+/);
});
