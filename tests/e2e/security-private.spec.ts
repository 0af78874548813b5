import { expect, test } from "@playwright/test";
import { PRIVATE_BASE_URL } from "../../playwright.config";
import { PRIVATE_USERS } from "./fixtures/private-users";
import { signIn } from "./security-helpers";

// The second server runs with STEPWISE_ACCESS=private: nothing is readable without signing in
// (or a share link, security-share.spec.ts), sessions are HTTP-only SameSite=Lax cookies, and
// the data layer still refuses when the proxy is fooled by a cookie that is not a session.
test.use({ baseURL: PRIVATE_BASE_URL });
test.describe.configure({ mode: "serial" });

const RUN = "/runs/sim-alpha-8b__lb3-r1_10-mixed__2026-06-01";

test("anonymous visitors are sent to sign in from every view; the API answers 401", async ({ page, request }) => {
  for (const path of ["/", "/curves", "/compare", "/self-conditioning", "/jobs", RUN, `${RUN}/items/x`]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/login/);
  }
  await page.goto(RUN + "?tab=items");
  expect(new URL(page.url()).searchParams.get("next")).toBe(RUN + "?tab=items");
  for (const path of [
    "/api/v1/runs",
    "/api/v1/leaderboard",
    "/api/v1/jobs",
    `/api/v1/runs/${encodeURIComponent("sim-alpha-8b__lb3-r1_10-mixed__2026-06-01")}/metrics`,
  ]) {
    const r = await request.get(path);
    expect(r.status(), path).toBe(401);
    expect(await r.json()).toMatchObject({ error: expect.stringContaining("token") });
  }
  for (const path of ["/export/leaderboard", "/export/runs/sim-alpha-8b__lb3-r1_10-mixed__2026-06-01/items"]) {
    const r = await request.get(path, { maxRedirects: 0 });
    expect(r.status(), path).toBeGreaterThanOrEqual(300);
    expect(r.status(), path).toBeLessThan(400);
    expect(r.headers()["location"]).toContain("/login");
  }
});

test("a cookie that is not a session gets past the proxy but not the data layer", async ({ browser }) => {
  const ctx = await browser.newContext();
  await ctx.addCookies([{ name: "sw_session", value: "A".repeat(43), url: PRIVATE_BASE_URL }]);
  const page = await ctx.newPage();
  for (const path of ["/", RUN, "/compare"]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/login/);
    await expect(page.locator("body")).not.toContainText("Sim-Alpha-8B");
  }
  await ctx.close();
});

test("wrong passwords are refused with one message for unknown and known emails", async ({ page }) => {
  await page.goto("/login");
  for (const email of [PRIVATE_USERS.viewer.email, "nobody@e2e.test"]) {
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("not the password");
    // each attempt must reach the server: the message of the one before is still on the page
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/login"),
      page.getByRole("button", { name: "Sign in" }).click(),
    ]);
    expect(answer.ok()).toBe(true);
    await expect(page.getByTestId("login-error")).toHaveText("Wrong email or password.");
    // React resets the form once the action's result commits: typing before that is lost
    await expect(page.getByLabel("Password")).toHaveValue("");
  }
});

test("a viewer signs in (HTTP-only, SameSite=Lax session), reads everything, cannot write, signs out", async ({ page, context }) => {
  await signIn(page, "viewer", RUN);
  await expect(page).toHaveURL(new RegExp(RUN.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "$"));
  await expect(page.getByTestId("run-summary")).toBeVisible();
  const session = (await context.cookies()).find((c) => c.name === "sw_session")!;
  expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false, path: "/" });
  expect(session.expires).toBeGreaterThan(Date.now() / 1000);
  expect(await page.evaluate(() => document.cookie)).not.toContain("sw_session");
  await page.goto("/");
  await expect(page.getByTestId("auth-nav")).toContainText(PRIVATE_USERS.viewer.email);
  await expect(page.getByTestId("leaderboard-row").first()).toBeVisible();
  expect((await page.request.get("/api/v1/runs")).status()).toBe(200);
  // A viewer's session cannot write, even from our own origin.
  const w = await page.request.post("/api/v1/runs", { data: "{}", headers: { origin: PRIVATE_BASE_URL } });
  expect(w.status()).toBe(403);
  await page.goto("/logout");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login\?signed_out=1/);
  expect((await context.cookies()).find((c) => c.name === "sw_session" && c.value)).toBeUndefined();
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
  // The old session secret is dead on the server too (not just forgotten by the browser).
  const replay = await page.request.get("/api/v1/runs", { headers: { cookie: `sw_session=${session.value}` } });
  expect(replay.status()).toBe(401);
});

test("an editor's session writes from our origin; a cross-site request with the cookie is refused", async ({ page }) => {
  await signIn(page, "editor");
  const cross = await page.request.post("/api/v1/share", {
    data: { run: "sim-alpha-8b__lb3-r1_10-mixed__2026-06-01" },
    headers: { origin: "https://evil.example" },
  });
  expect(cross.status()).toBe(403);
  const same = await page.request.post("/api/v1/share", {
    data: { run: "sim-alpha-8b__lb3-r1_10-mixed__2026-06-01" },
    headers: { origin: PRIVATE_BASE_URL },
  });
  expect(same.status()).toBe(201);
  expect((await same.json()).path).toMatch(/^\/share\/[A-Za-z0-9_-]{43}$/);
});
