import { expect, test } from "@playwright/test";

const HOSTILE = "/runs/e2e-hostile__arith/items/" + encodeURIComponent("evil-<1>");

test("a step deep link scrolls to and highlights that row", async ({ page }) => {
  await page.goto(HOSTILE + "#step-3");
  const row = page.locator("#step-3");
  await expect(row).toHaveAttribute("data-targeted", "true");
  await expect(row).toBeInViewport();
  await expect(row).toContainText("slip");
  // Clicking a highlighted claim in the raw output moves the target to its row.
  await page.getByTestId("raw-output").getByRole("link", { name: "step 4: propagated" }).click();
  await expect(page).toHaveURL(/#step-4$/);
  await expect(page.locator("#step-4")).toHaveAttribute("data-targeted", "true");
  await page.screenshot({ path: "tests/output/generation-deep-link.png" });
});

test("hostile model output is shown as text and never runs", async ({ page }) => {
  await page.goto(HOSTILE);
  const output = page.getByTestId("raw-output");
  await expect(output).toContainText("<script>window.__pwned = 1</script>");
  await expect(output).toContainText('<img src=x onerror="window.__pwned = 2">');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator("script", { hasText: "__pwned" }).count()).toBe(0);
  expect(await page.locator("img[src=x]").count()).toBe(0);
  expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
  // Markup in a model name is text too.
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText("Hostile <b>Model</b>");
});

test("j and k move between failed generations", async ({ page }) => {
  await page.goto("/runs/sim-alpha-8b__lb3-r1_10-mixed__2026-06-01?tab=items");
  await page.getByTestId("filter-failed").check();
  await expect(page).toHaveURL(/failed=1/);
  await page.getByTestId("item-link").first().click();
  await expect(page).toHaveURL(/\/items\//);
  const first = page.url();
  await expect(page.getByTestId("next-failed")).toBeVisible();
  // The page's key listener attaches in an effect after the link is painted: a key pressed in
  // between is lost, so press again while the URL has not moved (a late first press and a
  // second one both go to the same next generation).
  const pressUntilMoved = async (key: string, from: string) =>
    expect(async () => {
      if (page.url() === from) await page.keyboard.press(key);
      await expect(page).not.toHaveURL(from, { timeout: 1000 });
    }).toPass();
  await pressUntilMoved("j", first);
  const second = page.url();
  await expect(page.getByTestId("prev-failed")).toBeVisible();
  await pressUntilMoved("k", second);
  await expect(page).toHaveURL(first);
});

test("dict-sum generations show one row per turn", async ({ page }) => {
  await page.goto("/runs/sim-alpha-8b__dict100-k2-multi__2026-06-01?tab=items&failed=1");
  await page.getByTestId("item-link").first().click();
  const table = page.getByTestId("turn-table");
  await expect(table).toBeVisible();
  await expect(table.locator("tbody tr")).toHaveCount(12);
  await expect(page.getByTestId("divergence-callout")).toContainText(/First divergence at step \d+: \w+ \(turn \d+\)/);
  await page.screenshot({ path: "tests/output/generation-dict-sum.png", fullPage: true });
});

test("an unknown item or run shows the not-found page (HTTP 404 for a run)", async ({ page }) => {
  // An unknown item of a known run is found out inside the streamed page: the not-found page
  // shows, but the status stays 200 (docs/decisions.md).
  await page.goto("/runs/e2e-hostile__arith/items/no-such-item");
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  const run = await page.goto("/runs/no-such-run");
  expect(run?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
});

test("a 95-step trace diff keeps only the rows in view, opens at the first divergence and reveals any #step-J", async ({ page }) => {
  await page.goto("/runs/sim-alpha-8b__lb3-r1_10-mixed__demo?tab=items&failed=1&minLen=95&sort=divergence&dir=desc");
  await page.getByTestId("item-link").first().click();
  await expect(page).toHaveURL(/\/items\//);
  const box = page.locator('[data-trace-diff="windowed"]');
  const table = page.getByTestId("step-table");
  await expect(box).toBeVisible();
  const total = Number(await table.getAttribute("aria-rowcount")) - 1;
  expect(total).toBeGreaterThanOrEqual(95);
  const rendered = table.locator("tbody tr[data-status]");
  expect(await rendered.count()).toBeLessThan(60);

  // the latest first divergence of the run's 95-step failures: far down, yet in the box's view on load
  const first = table.locator('tr[data-first-divergence="true"]');
  await expect(first).toBeVisible();
  const inBox = await first.evaluate((row) => {
    const r = row.getBoundingClientRect();
    const b = row.closest("[data-trace-diff]")!.getBoundingClientRect();
    return r.top >= b.top && r.bottom <= b.bottom + 1;
  });
  expect(inBox).toBe(true);
  const j = Number((await first.getAttribute("id"))!.replace("step-", ""));
  expect(j).toBeGreaterThan(20);

  // a step outside the window: brought in, scrolled to, marked
  const far = j > 50 ? 3 : 90;
  await page.evaluate((n) => (window.location.hash = "#step-" + n), far);
  await expect(page.locator(`#step-${far}`)).toHaveAttribute("data-targeted", "true");
  await expect(page.locator(`#step-${far}`)).toBeInViewport();

  // scrolling the box to its end renders the last rows and drops the first ones
  await box.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(page.locator("#step-95")).toBeVisible();
  await expect(page.locator("#step-1")).toHaveCount(0);
  expect(await rendered.count()).toBeLessThan(60);
  await page.screenshot({ path: "tests/output/generation-long-trace.png" });
});

test("a generation without an answer says so apart from the answers, which are the model's text", async ({ page }) => {
  const run = "sim-alpha-8b__lb3-r1_10-mixed__demo";
  await page.goto(`/runs/${run}?tab=items&mode=missing-answer`);
  const rows = page.locator("tbody tr");
  await expect(rows.first()).toBeVisible();
  // every row lacks an answer: each says "none" in the quiet style, and no answer cell holds it
  const n = await rows.count();
  await expect(page.locator("tbody .item-no-answer")).toHaveCount(n);
  for (const text of await page.locator("tbody .item-answer").allTextContents()) expect(text).not.toBe("none");
  // a format error's answer is the model's own text, shown as an answer
  await page.goto(`/runs/${run}?tab=items&mode=format-error`);
  const answers = await page.locator("tbody .item-answer").allTextContents();
  expect(answers.length).toBeGreaterThan(0);
  expect(answers.every((a) => a.trim() !== "" && a !== "none")).toBe(true);
});

test("a misread input is explained as one, with the item's value, not as a slip of unknown operands", async ({ page }) => {
  // the demo's seeded Sim-Alpha-8B run: this item's model copied input y wrong at step 2
  await page.goto("/runs/sim-alpha-8b__lb3-r1_10-mixed__demo/items/arith-lb3-0029");
  const row = page.locator("#step-2");
  await expect(row).toHaveAttribute("data-status", "slip");
  await expect(row).toContainText("input y");
  const reference = (await row.locator("td").nth(2).textContent())!.trim();
  await expect(row.locator("td").last()).toHaveText(`input misread · y is ${reference}`);
  await expect(page.locator("tbody")).not.toContainText("operands unknown");
});
