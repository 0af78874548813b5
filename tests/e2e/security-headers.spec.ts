import { expect, test } from "@playwright/test";
import { watch } from "./security-helpers";

// Response headers of pages, the API and static files, and the nonce CSP working with the
// production build: scripts carry the request's nonce, the app hydrates, nothing is refused.
const STATIC = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
};

test("pages: nonce CSP (fresh per request), the usual headers, no HSTS over http", async ({ request }) => {
  const a = await request.get("/");
  const b = await request.get("/");
  for (const [k, v] of Object.entries(STATIC)) expect(a.headers()[k], k).toBe(v);
  expect(a.headers()["permissions-policy"]).toContain("camera=()");
  expect(a.headers()["strict-transport-security"]).toBeUndefined();
  expect(a.headers()["x-powered-by"]).toBeUndefined();
  const csp = a.headers()["content-security-policy"];
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}' 'strict-dynamic'/);
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).not.toContain("unsafe-eval");
  const nonce = /'nonce-([^']+)'/.exec(csp)![1];
  expect(/'nonce-([^']+)'/.exec(b.headers()["content-security-policy"])![1]).not.toBe(nonce);
  // Every script tag of the HTML carries this response's nonce.
  const html = await a.text();
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  for (const s of scripts) expect(s).toContain(`nonce="${nonce}"`);
});

test("HSTS is sent when the request came over https (reverse proxy)", async ({ request }) => {
  const r = await request.get("/", { headers: { "x-forwarded-proto": "https" } });
  expect(r.headers()["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  expect(r.headers()["content-security-policy"]).toContain("upgrade-insecure-requests");
});

test("API, export and static responses: locked CSP and the same headers", async ({ request }) => {
  for (const url of ["/api/v1/runs", "/api/health", "/export/leaderboard"]) {
    const r = await request.get(url);
    expect(r.status(), url).toBe(200);
    for (const [k, v] of Object.entries(STATIC)) expect(r.headers()[k], `${url} ${k}`).toBe(v);
    expect(r.headers()["content-security-policy"], url).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
  }
  const icon = await request.get("/icon.svg");
  expect(icon.headers()["x-content-type-options"]).toBe("nosniff");
});

test("the app hydrates under the CSP: client navigation and copy-link work, nothing refused", async ({ page, baseURL, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const problems = watch(page, baseURL!);
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Curves" }).click();
  await expect(page).toHaveURL(/\/curves/);
  await page.getByTestId("copy-link").first().click();
  await expect(page.getByTestId("copy-link").first()).toContainText(/copied|manually/i);
  expect(problems).toEqual([]);
});

test("pages cannot be framed by another site", async ({ page, baseURL }) => {
  await page.setContent(`<iframe id="f" src="${baseURL}/"></iframe>`);
  const frame = page.frames().find((f) => f.url().startsWith(baseURL!));
  // Chromium refuses the navigation (frame-ancestors / X-Frame-Options): no document of ours loads.
  const title = frame ? await frame.title().catch(() => "") : "";
  expect(title).not.toContain("Stepwise");
});
