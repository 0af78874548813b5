import { expect, test } from "@playwright/test";
import { PRIVATE_BASE_URL } from "../../playwright.config";
import { signIn } from "./security-helpers";

// Share links on the private server: an editor mints one; a stranger with the URL reads that run
// (page, generations, metrics API) and nothing else; revoking it ends access at once.
test.use({ baseURL: PRIVATE_BASE_URL });
test.describe.configure({ mode: "serial" });

const SHARED = "sim-alpha-8b__lb3-r1_10-mixed__2026-06-01";
const enc = encodeURIComponent;

test("a share link grants one run without an account, and revoking it ends that", async ({ page, browser }) => {
  await signIn(page, "editor");
  const made = await page.request.post("/api/v1/share", {
    data: { run: SHARED, expiresInDays: 7, label: "<b>for</b> reviewers" },
    headers: { origin: PRIVATE_BASE_URL },
  });
  expect(made.status()).toBe(201);
  const link = (await made.json()) as { id: number; path: string; expires_at: string };
  expect(new Date(link.expires_at).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
  const other = (await (await page.request.get("/api/v1/runs")).json())
    .map((r: { key: string }) => r.key)
    .find((k: string) => k !== SHARED) as string;

  const stranger = await browser.newContext();
  const s = await stranger.newPage();
  await s.goto(link.path);
  await expect(s).toHaveURL(new RegExp(`/runs/${SHARED.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
  await expect(s.getByTestId("run-summary")).toBeVisible();
  // The secret left the URL for an HTTP-only cookie.
  const cookie = (await stranger.cookies()).find((c) => c.name === "sw_share")!;
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  // Its tabs, generations and metrics API work.
  await s.goto(`/runs/${enc(SHARED)}?tab=items`);
  await s.getByTestId("item-link").first().click();
  await expect(s).toHaveURL(/\/items\//);
  await expect(s.getByTestId("raw-output")).toBeVisible();
  expect((await s.request.get(`/api/v1/runs/${enc(SHARED)}/metrics`)).status()).toBe(200);
  // Nothing else: another run is "not found" (page and API), the leaderboard and run list need an account.
  const res = await s.goto(`/runs/${enc(other)}`);
  expect(res?.status()).toBe(404);
  expect((await s.request.get(`/api/v1/runs/${enc(other)}/metrics`)).status()).toBe(404);
  expect((await s.request.get("/api/v1/runs")).status()).toBe(401);
  await s.goto("/");
  await expect(s).toHaveURL(/\/login/);
  // A share holder cannot write or mint more links.
  expect((await s.request.post("/api/v1/share", { data: { run: SHARED }, headers: { origin: PRIVATE_BASE_URL } })).status()).toBe(401);

  // The editor sees the link (never its secret) and revokes it.
  const list = await (await page.request.get(`/api/v1/share?run=${enc(SHARED)}`)).json();
  expect(list.find((l: { id: number }) => l.id === link.id)).toMatchObject({ label: "<b>for</b> reviewers", active: true });
  expect(JSON.stringify(list)).not.toContain(link.path.slice(7));
  expect((await page.request.delete(`/api/v1/share/${link.id}`, { headers: { origin: PRIVATE_BASE_URL } })).status()).toBe(200);
  await s.goto(`/runs/${enc(SHARED)}`);
  await expect(s).toHaveURL(/\/login/);
  expect((await s.request.get(`/api/v1/runs/${enc(SHARED)}/metrics`)).status()).toBe(401);
  const again = await s.goto(link.path);
  expect(again?.status()).toBe(404);
  await stranger.close();
});

test("made-up and malformed share links are 404 and grant nothing", async ({ request }) => {
  for (const t of ["A".repeat(43), "short", "%3Cscript%3E"]) {
    const r = await request.get(`/share/${t}`, { maxRedirects: 0 });
    expect(r.status(), t).toBe(404);
    expect(r.headers()["set-cookie"]).toBeUndefined();
  }
});

test("the run page's share panel: editors mint and revoke, viewers do not see it", async ({ page, browser }) => {
  await signIn(page, "editor", `/runs/${enc(SHARED)}`);
  const panel = page.getByTestId("share-panel");
  await expect(panel).toBeVisible();
  await panel.getByLabel("Expires").selectOption("1");
  await panel.getByLabel("Note (optional)").fill("panel test");
  await panel.getByRole("button", { name: "Create link" }).click();
  const url = await page.getByTestId("share-url").inputValue();
  expect(url).toMatch(new RegExp(`^${PRIVATE_BASE_URL}/share/[A-Za-z0-9_-]{43}$`));
  const row = page.getByTestId("share-links").locator("li", { hasText: "panel test" });
  await expect(row).toBeVisible();

  const stranger = await browser.newContext();
  const s = await stranger.newPage();
  await s.goto(url);
  await expect(s.getByTestId("run-summary")).toBeVisible();
  await expect(s.getByTestId("share-panel")).toHaveCount(0);

  await row.getByRole("button", { name: "Revoke" }).click();
  await expect(row).toContainText("revoked");
  await s.reload();
  await expect(s).toHaveURL(/\/login/);
  await stranger.close();
});
