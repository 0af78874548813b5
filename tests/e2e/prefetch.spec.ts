import { expect, test, type Page } from "@playwright/test";

// Links prefetch on intent (components/ui/link.tsx): opening and scrolling a view asks the
// server for no other page; pointing at a link prefetches that one; a row's link never
// prefetches, and it still navigates client-side.

const REAL_RUN = "sim-alpha-8b__lb3-r1_10-mixed__2026-06-01";
const DEMO_RUN = "sim-alpha-8b__lb3-r1_10-mixed__demo";

/** The RSC requests (prefetches and client navigations) the page makes from now on. */
function rscRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (r) => {
    if (r.headers()["rsc"]) seen.push(new URL(r.url()).pathname + new URL(r.url()).search);
  });
  return seen;
}

for (const path of ["/about", "/", `/runs/${REAL_RUN}?tab=items`, `/compare?runs=${REAL_RUN},${DEMO_RUN}`, `/curves?runs=${REAL_RUN}`]) {
  test(`${path}: opening and scrolling the view prefetches nothing`, async ({ page }) => {
    const rsc = rscRequests(page);
    await page.goto(path);
    await page.mouse.wheel(0, 20_000);
    await page.waitForTimeout(1500);
    expect(rsc).toEqual([]);
  });
}

test("pointing at a link of the bar prefetches its page; a row's link navigates without having prefetched", async ({ page }) => {
  const rsc = rscRequests(page);
  await page.goto(`/runs/${REAL_RUN}?tab=items`);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Curves" }).hover();
  await expect.poll(() => rsc.some((u) => u.startsWith("/curves"))).toBe(true);

  const item = page.getByTestId("item-link").first();
  await item.hover();
  await page.waitForTimeout(500);
  expect(rsc.filter((u) => u.includes("/items/"))).toEqual([]);
  const href = (await item.getAttribute("href"))!;
  await item.click();
  await expect(page).toHaveURL(new RegExp(href.replace(/[?]/g, "\\?")));
  // a client-side navigation: the page was not loaded again
  expect(rsc.some((u) => u.startsWith(href.split("?")[0]))).toBe(true);
});

// Row links are plain anchors opened by one handler per table (useRowLinkNavigation): each
// table's link must still open its page without loading the app again, and a click the
// browser should handle (a modifier key) must stay the browser's.
for (const [view, path, selector] of [
  ["leaderboard", "/", '[data-testid="run-link"]'],
  ["run items", `/runs/${REAL_RUN}?tab=items`, '[data-testid="item-link"]'],
  ["compare", `/compare?runs=${DEMO_RUN},sim-epsilon-32b__lb3-r1_10-mixed__demo`, "a.pair-link"],
] as const) {
  test(`${view}: a row's link opens its page client-side; Ctrl+click opens a new tab`, async ({ page, context }) => {
    await page.goto(path);
    const anchor = page.locator(selector).first();
    const target = (await anchor.getAttribute("href"))!.split(/[?#]/)[0];

    const popup = context.waitForEvent("page");
    await anchor.click({ modifiers: ["ControlOrMeta"] });
    expect(new URL((await popup).url()).pathname).toBe(target);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(path);

    await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
    await anchor.click();
    await expect(page).toHaveURL((u) => u.pathname === target);
    // the same document: the app was not loaded again
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  });
}
