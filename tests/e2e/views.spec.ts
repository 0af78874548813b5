import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { E2E_PRIVATE_DATABASE_URL, PRIVATE_BASE_URL } from "../../playwright.config";
import { EXAMPLES } from "../helpers/fixtures";

// Issue 17, the views' part: every point at 1280 px and 390 px, light and dark, with a
// screenshot of every view in both themes under tests/output/views/.

const WIDTHS = [1280, 390] as const;
const THEMES = ["light", "dark"] as const;
const DEMO_RUN = "sim-alpha-8b__lb3-r1_10-mixed__demo";
const REAL_RUN = "sim-alpha-8b__lb3-r1_10-mixed__2026-06-01";
const MULTI_TURN = "sim-alpha-8b__dict100-k1-multi__2026-06-01";
// A demo generation whose first answer is right after a slip at step 2 (the demo data are deterministic).
const RECOVERED = `/runs/${DEMO_RUN}/items/arith-lb3-0115`;
// A failed generation with a slip at step 16 of 25, whose DETAIL explains it.
const SLIPPED = `/runs/${REAL_RUN}/items/alpha-0015`;

const VIEWS: [string, string][] = [
  ["leaderboard", "/"],
  ["leaderboard-dict-sum", "/?benchmark=dict-sum"],
  ["curves", `/curves?runs=${REAL_RUN},${DEMO_RUN}`],
  ["run-curves", `/runs/${REAL_RUN}`],
  ["run-failures", `/runs/${REAL_RUN}?tab=failures`],
  ["run-items", `/runs/${REAL_RUN}?tab=items`],
  ["generation", SLIPPED],
  ["generation-multi-turn", `/runs/${MULTI_TURN}/items/mt-0001`],
  ["compare", `/compare?runs=${DEMO_RUN},sim-beta-3b__lb3-r1_10-mixed__demo`],
  ["self-conditioning", "/self-conditioning"],
  ["glossary", "/glossary"],
  ["about", "/about"],
  ["jobs", "/jobs"],
  ["login", "/login"],
];

/** Nothing wider than the window: no sideways scrolling of the page. */
async function expectNoPageOverflow(page: Page, what: string) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, `${what}: page ${scroll} px wide in ${client} px`).toBeLessThanOrEqual(client);
}

/** The element lies inside the window horizontally (not cut off, not behind a sideways scroll). */
async function expectInWindowX(page: Page, selector: string, what: string) {
  const box = await page.locator(selector).first().boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, what).not.toBeNull();
  expect(box!.x, what).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what}: right edge ${box!.x + box!.width} px in ${width} px`).toBeLessThanOrEqual(width + 0.5);
}

/** Relative luminance of a computed CSS colour (rgb(), or oklch() that Chromium may report). */
async function luminanceOf(page: Page, selector: string, prop: "backgroundColor" | "color"): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((el, p) => {
      const c = document.createElement("canvas").getContext("2d")!;
      c.fillStyle = getComputedStyle(el)[p];
      c.fillRect(0, 0, 1, 1);
      const [r, g, b] = c.getImageData(0, 0, 1, 1).data;
      const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    }, prop);
}

for (const width of WIDTHS)
  for (const theme of THEMES)
    test.describe(`${width} px, ${theme}`, () => {
      test.use({ viewport: { width, height: width > 500 ? 900 : 844 }, colorScheme: theme });

      test("every view follows the theme, fits the width, and is screenshotted", async ({ page }) => {
        test.setTimeout(180_000);
        fs.mkdirSync("tests/output/views", { recursive: true });
        for (const [name, url] of VIEWS) {
          const res = await page.goto(url);
          expect(res?.status(), url).toBeLessThan(400);
          // A streamed page swaps its loading skeleton (which has an h1 of its own) for the page:
          // measure after the swap, not on a heading that is being detached.
          await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
          const body = await luminanceOf(page, "body", "backgroundColor");
          const ink = await luminanceOf(page, "h1", "color");
          if (theme === "dark") {
            expect(body, `${name}: dark page`).toBeLessThan(0.05);
            expect(ink, `${name}: light ink`).toBeGreaterThan(0.6);
          } else {
            expect(body, `${name}: light page`).toBeGreaterThan(0.85);
            expect(ink, `${name}: dark ink`).toBeLessThan(0.05);
          }
          // The leaderboard and the trace diff must fit without sideways scrolling (their tables are the point).
          if (name.startsWith("leaderboard") || name.startsWith("generation") || name === "glossary" || name === "about")
            await expectNoPageOverflow(page, name);
          await page.screenshot({ path: `tests/output/views/${name}-${width}-${theme}.png`, fullPage: true });
        }
      });

      test("leaderboard: one benchmark, H₀.₅ beside the name, legend, search and demo toggle in the URL", async ({ page }) => {
        await page.goto("/");
        const tabs = page.getByRole("navigation", { name: "Benchmark" });
        await expect(tabs.locator('[aria-current="page"]')).toHaveText("procedural-arith");
        await expect(tabs.getByRole("link", { name: /Self-conditioning sweeps \(\d+\)/ })).toBeVisible();
        await expect(page.getByTestId("failure-mode-legend")).toBeVisible();
        // Real runs exist, so the demo runs are hidden and a toggle says how many.
        await expect(page.getByTestId("demo-hidden")).toContainText(/\d+ demo runs? hidden/);
        const rows = page.getByTestId("leaderboard-row");
        await expect(page.getByTestId("demo-badge")).toHaveCount(0);
        // The table fits: its own scroll box does not scroll sideways, the last column is whole.
        const box = page.locator("table").first().locator("xpath=..");
        const { scroll, client } = await box.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
        if (width >= 1280) expect(scroll, `table ${scroll} px in ${client} px`).toBeLessThanOrEqual(client);
        // The key number sits next to the name, on screen, at any width.
        await expectInWindowX(page, '[data-testid="leaderboard-row"] [data-testid="run-link"]', "run name");
        await expectInWindowX(page, `[data-testid="leaderboard-row"] [data-testid="${width < 640 ? "h50-inline" : "h50"}"]`, "H₀.₅");
        await expect(rows.first()).toContainText("pred. H₀.₅");

        await page.getByRole("link", { name: "Show demo runs" }).click();
        await expect(page).toHaveURL(/demo=1/);
        await expect(page.getByTestId("demo-badge").first()).toBeVisible();
        await page.getByLabel("Search runs").fill("epsilon");
        await page.getByLabel("Search runs").press("Enter");
        await expect(page).toHaveURL(/q=epsilon/);
        await expect(page).toHaveURL(/demo=1/);
        await expect(rows.first()).toBeVisible();
        for (const text of await rows.allInnerTexts()) expect(text.toLowerCase()).toContain("epsilon");
        await page.reload();
        await expect(page.getByLabel("Search runs")).toHaveValue("epsilon");
      });

      test("navigation, filters on a phone, glossary and the shortcuts help", async ({ page }) => {
        await page.goto("/");
        const nav = page.getByRole("navigation", { name: "Main" });
        const filters = page.getByLabel("Variant");
        if (width < 640) {
          await expect(nav).toBeHidden();
          await expect(filters).toBeHidden();
          await page.getByRole("button", { name: /^Filters/ }).click();
          await expect(filters).toBeVisible();
          await page.getByRole("button", { name: "Menu" }).click();
          await expect(nav).toBeVisible();
        } else {
          await expect(nav).toBeVisible();
          await expect(filters).toBeVisible();
          await expect(page.getByRole("button", { name: "Menu" })).toBeHidden();
        }
        await expect(nav.getByRole("link", { name: "About" })).toBeVisible();
        await nav.getByRole("link", { name: "Glossary" }).click();
        await expect(page).toHaveURL(/\/glossary$/);
        await expect(page.getByRole("heading", { name: "Why H₀.₅ and L50 differ" })).toBeVisible();
        for (const term of [
          "Wilson 95% interval",
          "McNemar's test (Compare)",
          "Failure modes",
          "Step reliability p̂ and its predicted horizon",
        ])
          await expect(page.getByRole("heading", { name: term })).toBeVisible();
        if (width < 640) await expect(nav).toBeHidden(); // the menu closed on navigation

        await page.keyboard.press("?");
        const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
        await expect(help).toBeVisible();
        await expect(help).toContainText("next / previous failed generation");
        await page.keyboard.press("Escape");
        await expect(help).toBeHidden();
        await page.goto("/");
        // Until hydration the key has no listener yet: press again until it lands.
        await expect(async () => {
          await page.keyboard.press("/");
          await expect(page.getByLabel("Search runs")).toBeFocused({ timeout: 500 });
        }).toPass();
      });

      test("trace diff: DETAIL and STATUS on screen, raw output follows #step-J, recovered and first-answer notes", async ({ page }) => {
        await page.goto(SLIPPED);
        const first = page.locator('tr[data-first-divergence="true"]');
        await expect(first).toBeVisible();
        await expect(first.locator("td").last()).toContainText("own values give");
        await expectInWindowX(page, 'tr[data-first-divergence="true"] td:last-child', "DETAIL of the first divergence");
        await expectInWindowX(page, 'tr[data-first-divergence="true"] .badge', "STATUS of the first divergence");
        const table = page.locator("[data-trace-diff]");
        const { scroll, client } = await table.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
        expect(scroll, `trace diff ${scroll} px in ${client} px`).toBeLessThanOrEqual(client);

        // #step-J moves the raw output to that step's claim and marks it.
        const j = Number((await first.getAttribute("id"))!.replace("step-", ""));
        await page.evaluate((n) => (window.location.hash = "#step-" + n), j);
        const claim = page.locator(`[data-output-pane] a[id="claim-${j}"]`);
        await expect(claim).toHaveAttribute("data-targeted", "true");
        const inPane = await claim.evaluate((a) => {
          const r = a.getBoundingClientRect();
          const p = a.closest("[data-output-pane]")!.getBoundingClientRect();
          return r.top >= p.top && r.bottom <= p.bottom;
        });
        expect(inPane).toBe(true);
        await page.evaluate(() => (window.location.hash = "#step-1"));
        await expect(claim).not.toHaveAttribute("data-targeted", "true");

        await page.goto(RECOVERED);
        await expect(page.getByTestId("recovered")).toContainText("recovered after a slip at step 2");
        await page.goto(`/runs/${MULTI_TURN}/items/mt-0001`);
        await expect(page.getByTestId("first-answer-note")).toContainText(/the last turn's answer \(turn \d+ of \d+\)/);
      });

      test("run page: ?failed=1 without a tab opens the items, with the trace-strip legend", async ({ page }) => {
        await page.goto(`/runs/${REAL_RUN}?failed=1`);
        await expect(page.locator('a[data-tab="items"]')).toHaveAttribute("aria-current", "page");
        await expect(page.getByTestId("item-row").first()).toBeVisible();
        await expect(page.getByTestId("trace-strip-legend")).toContainText("propagated");
        await page.locator('a[data-tab="curves"]').click();
        await expect(page).toHaveURL(/tab=curves/);
        await expect(page.locator('a[data-tab="curves"]')).toHaveAttribute("aria-current", "page");
      });
    });

test("an admin deletes a run from its page after typing its key; others see no delete", async ({ browser }) => {
  test.setTimeout(120_000);
  const env = { ...process.env, DATABASE_URL: E2E_PRIVATE_DATABASE_URL, NEXT_TELEMETRY_DISABLED: "1" };
  const cli = (args: string[], input?: string) => execFileSync("node", ["bin/stepwise.mjs", ...args], { env, input, encoding: "utf8" });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-e2e-delete-"));
  const key = "views-delete-me";
  const source = fs.readFileSync(path.join(EXAMPLES, "generic-small.jsonl"), "utf8").split("\n");
  const firstRun = source.findIndex((l, i) => i > 0 && l.startsWith('{"type":"run"'));
  fs.writeFileSync(
    path.join(dir, "run.jsonl"),
    source
      .slice(0, firstRun > 0 ? firstRun : undefined)
      .join("\n")
      .replace(/"key":"[^"]+"/, `"key":"${key}"`) + "\n",
  );
  cli(["ingest", path.join(dir, "run.jsonl")]);
  const admin = { email: "views-admin@e2e.test", password: "views admin passphrase" };
  try {
    cli(["user", "create", "--email", admin.email, "--role", "admin", "--password-stdin"], admin.password + "\n");
  } catch {
    // created by an earlier run of this test against the same store
  }
  const ctx = await browser.newContext({ baseURL: PRIVATE_BASE_URL });
  const page = await ctx.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("auth-nav")).toContainText(admin.email);
  await page.goto(`/runs/${key}`);
  await page.getByTestId("delete-run").locator("summary").click();
  await page.getByLabel(/to confirm/).fill("not the key");
  await page.getByRole("button", { name: "Delete this run" }).click();
  await expect(page.getByTestId("delete-run").getByRole("alert")).toContainText("Type the run key exactly");
  expect(cli(["runs"])).toContain(key);
  await page.getByLabel(/to confirm/).fill(key);
  await page.getByRole("button", { name: "Delete this run" }).click();
  await expect(page).toHaveURL(new RegExp(`^${PRIVATE_BASE_URL}/$`));
  expect(cli(["runs"])).not.toContain(key);
  expect((await page.goto(`/runs/${key}`))?.status()).toBe(404);
  await ctx.close();

  // An editor sees no delete on a run page.
  const other = await browser.newContext({ baseURL: PRIVATE_BASE_URL });
  const p2 = await other.newPage();
  const { PRIVATE_USERS } = await import("./fixtures/private-users");
  await p2.goto("/login");
  await p2.getByLabel("Email").fill(PRIVATE_USERS.editor.email);
  await p2.getByLabel("Password").fill(PRIVATE_USERS.editor.password);
  await p2.getByRole("button", { name: "Sign in" }).click();
  await expect(p2.getByTestId("auth-nav")).toContainText(PRIVATE_USERS.editor.email);
  const anyRun = cli(["runs"]).split("\n")[0].split("\t")[0];
  await p2.goto(`/runs/${anyRun}`);
  await expect(p2.getByTestId("run-summary")).toBeVisible();
  await expect(p2.getByTestId("delete-run")).toHaveCount(0);
  await other.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the Failures tab states the rules of the run's benchmark: per turn for dict-sum, 'does not apply' where it never sets a mode", async ({
  page,
}) => {
  await page.goto("/runs/sim-alpha-8b__dict100-k2-multi__demo?tab=failures");
  const table = page.locator("table", { hasText: "Rule" });
  await expect(table.locator("tr", { hasText: "missing answer" })).toContainText("a turn without an <answer> tag");
  await expect(table.locator("tr", { hasText: "premature answer" })).toContainText("does not apply to dict-sum");
  await page.goto("/runs/sim-alpha-8b__selfcond-k1-t100__demo?tab=failures");
  await expect(page.locator("table", { hasText: "Rule" }).locator("tr", { hasText: "slip" })).toContainText("at the target turn");
  await expect(page.locator("table", { hasText: "Rule" }).locator("tr", { hasText: "under-executed" })).toContainText(
    "does not apply to self-conditioning runs",
  );
  await page.goto("/runs/sim-alpha-8b__lb3-r1_10-mixed__demo?tab=failures");
  const arith = page.locator("table", { hasText: "Rule" });
  await expect(arith.locator("tr", { hasText: "missing answer" })).toContainText("no final answer anywhere");
  await expect(arith).not.toContainText("does not apply");
});
