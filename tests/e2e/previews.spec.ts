import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { E2E_DATABASE_URL, PRIVATE_BASE_URL } from "../../playwright.config";
import { signIn } from "./security-helpers";

// Link previews as a chat client fetches them: plain `fetch` (no cookies, no browser), in open and
// private mode. Pages carry Open Graph and Twitter tags in <head>; og:image is an absolute URL of
// a 1200×630 PNG drawn on the server. In private mode a stranger gets the site's generic card
// (the very bytes of /og/site) and HTML without the run's data; a share link's preview shows its
// own run and nothing else. The security probes (security-probes.spec.ts) ask the image routes too.
test.describe.configure({ mode: "serial" });

const PORT = Number(process.env.E2E_PORT ?? 3100);
const OPEN = `http://127.0.0.1:${PORT}`;
const enc = encodeURIComponent;
const SHARED = "sim-alpha-8b__lb3-r1_10-mixed__2026-06-01";

/** meta tags of an HTML document, as a chat client reads them: only those in <head>. */
function metaOf(html: string): Record<string, string> {
  const head = html.slice(0, html.indexOf("</head>"));
  const out: Record<string, string> = {};
  for (const m of head.matchAll(/<meta\s+(?:property|name)="([^"]+)"\s+content="([^"]*)"/g)) out[m[1]] ??= decode(m[2]);
  return out;
}
const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

async function page(url: string, ua = "node") {
  const r = await fetch(url, { headers: { "user-agent": ua } });
  return { status: r.status, url: r.url, html: await r.text() };
}

async function png(url: string) {
  const r = await fetch(url);
  const bytes = Buffer.from(await r.arrayBuffer());
  expect(r.headers.get("content-type"), url).toBe("image/png");
  expect(bytes.subarray(1, 4).toString("latin1"), url).toBe("PNG");
  // IHDR: width and height at bytes 16 and 20
  return { bytes, width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), cache: r.headers.get("cache-control") ?? "" };
}

function firstDivergence(): { key: string; item: string; step: number; model: string } {
  const db = new Database(path.resolve(E2E_DATABASE_URL.replace(/^file:/, "")), { readonly: true });
  try {
    return db
      .prepare(
        `SELECT r."key" AS key, g."itemKey" AS item, g."firstDivergence" AS step, m."name" AS model FROM "Generation" g
         JOIN "Run" r ON r."id" = g."runId" JOIN "Model" m ON m."id" = r."modelId"
         WHERE g."firstDivergence" IS NOT NULL AND g."epoch" = 0 AND r."benchmark" = 'procedural-arith' ORDER BY g."id" LIMIT 1`,
      )
      .get() as { key: string; item: string; step: number; model: string };
  } finally {
    db.close();
  }
}

let generic: Buffer;

test("open mode: a run page's preview tags and its image", async () => {
  generic = (await png(`${OPEN}/og/site`)).bytes;
  const runs = (await (await fetch(`${OPEN}/api/v1/runs`)).json()) as { key: string; model: string; benchmark: string }[];
  const run = runs.find((r) => r.key === SHARED)!;
  for (const ua of ["node", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"]) {
    const p = await page(`${OPEN}/runs/${enc(run.key)}`, ua);
    expect(p.status).toBe(200);
    const m = metaOf(p.html);
    expect(m["og:title"], ua).toBe(`${run.model} · ${run.benchmark}`);
    expect(m["og:description"]).toMatch(/^H₀\.₅ (> )?[\d.]+ steps \(95% CI [\d.]+–[\d.]+\) · accuracy \d+% at length \d+/);
    expect(m["twitter:card"]).toBe("summary_large_image");
    expect(m["twitter:title"]).toBe(m["og:title"]);
    expect(m["og:image"]).toMatch(new RegExp(`^${OPEN}/og/runs/${enc(run.key)}\\?v=[0-9a-z]+$`));
  }
  const image = metaOf((await page(`${OPEN}/runs/${enc(run.key)}`)).html)["og:image"];
  const img = await png(image);
  expect([img.width, img.height]).toEqual([1200, 630]);
  expect(img.cache).toBe("public, max-age=31536000, immutable"); // open mode, current version
  expect(img.bytes.equals(generic)).toBe(false);
  // an old (or no) version is not cached for good: the run may have been loaded again
  expect((await png(`${OPEN}/og/runs/${enc(run.key)}?v=0`)).cache).toBe("private, no-cache");
});

test("open mode: a generation's preview names its first divergence; compare's shows both runs", async () => {
  const g = firstDivergence();
  const m = metaOf((await page(`${OPEN}/runs/${enc(g.key)}/items/${enc(g.item)}`)).html);
  expect(m["og:title"]).toContain(g.item);
  expect(m["og:description"]).toContain(`first divergence at step ${g.step} of`);
  const strip = await png(m["og:image"]);
  expect([strip.width, strip.height]).toEqual([1200, 630]);
  expect(strip.bytes.equals(generic)).toBe(false);

  const runs = ((await (await fetch(`${OPEN}/api/v1/runs`)).json()) as { key: string; model: string; benchmark: string }[]).filter(
    (r) => r.benchmark === "procedural-arith",
  );
  const [a, b] = runs;
  const c = metaOf((await page(`${OPEN}/compare?runs=${enc(a.key)},${enc(b.key)}`)).html);
  expect(c["og:title"]).toBe(`Compare: ${a.model} vs ${b.model} · procedural-arith`);
  expect(c["og:image"]).toMatch(/\/og\/compare\?runs=.*&v=[0-9a-z]+\.[0-9a-z]+$/);
  const both = await png(c["og:image"]);
  expect([both.width, both.height]).toEqual([1200, 630]);
  expect(both.bytes.equals(generic)).toBe(false);
});

test("unknown runs and pages without a run get the site's card", async () => {
  for (const url of [`${OPEN}/og/runs/no-such-run`, `${OPEN}/og/runs/no-such-run/items/x`, `${OPEN}/og/compare?runs=a,b`]) {
    const img = await png(url);
    expect(img.bytes.equals(generic), url).toBe(true);
    expect(img.cache).toBe("private, no-store");
  }
  const m = metaOf((await page(`${OPEN}/glossary`)).html);
  expect(m["og:title"]).toBe("Stepwise");
  expect(m["og:image"]).toBe(`${OPEN}/og/site`);
});

test("private mode: a stranger's preview is the generic card, with no run data in HTML or image", async () => {
  const g = { key: SHARED };
  for (const url of [`/runs/${enc(g.key)}`, `/compare?runs=${enc(SHARED)},x`]) {
    const p = await page(PRIVATE_BASE_URL + url);
    expect(p.url).toContain("/login"); // sent to sign in
    // nothing of the run beyond the key the URL itself named (the sign-in page's `next`)
    for (const data of ["H₀.₅", "procedural-arith", "% at length"]) expect(p.html.includes(data), `${url}: ${data}`).toBe(false);
    const m = metaOf(p.html);
    expect(m["og:title"]).toBe("Stepwise");
    expect(m["og:image"]).toBe(`${PRIVATE_BASE_URL}/og/site`);
  }
  for (const url of [`/og/runs/${enc(SHARED)}`, `/og/runs/${enc(SHARED)}/items/a-001`, `/og/compare?runs=${enc(SHARED)},${enc(SHARED)}`]) {
    const img = await png(PRIVATE_BASE_URL + url);
    expect(img.bytes.equals(generic), url).toBe(true);
    expect(img.cache).toBe("private, no-store");
  }
});

test.describe("on the private server", () => {
  test.use({ baseURL: PRIVATE_BASE_URL });
  test("private mode: a share link previews its own run, and only that", async ({ page: browserPage }) => {
    await signIn(browserPage, "editor");
    const made = await browserPage.request.post(`${PRIVATE_BASE_URL}/api/v1/share`, {
      data: { run: SHARED, expiresInDays: 1, label: "preview test" },
      headers: { origin: PRIVATE_BASE_URL },
    });
    expect(made.status()).toBe(201);
    const link = (await made.json()) as { id: number; path: string };
    const secret = link.path.split("/").pop()!;
    const listed = (await (await browserPage.request.get(`${PRIVATE_BASE_URL}/api/v1/runs`)).json()) as {
      key: string;
      model: string;
      benchmark: string;
    }[];
    const shared = listed.find((r) => r.key === SHARED)!;
    const other = listed.find((r) => r.key !== SHARED && r.model !== shared.model)!;

    // the chat client: no cookie, no redirect followed into the sign-in page
    const p = await page(PRIVATE_BASE_URL + link.path, "Mattermost-Bot/1.1");
    expect(p.status).toBe(200);
    const m = metaOf(p.html);
    expect(m["og:title"]).toBe(`${shared.model} · ${shared.benchmark}`);
    expect(m["og:description"]).toMatch(/^H₀\.₅ /);
    expect(m["og:image"]).toMatch(new RegExp(`^${PRIVATE_BASE_URL}/og/share/${secret}\\?v=[0-9a-z]+$`));
    expect(p.html).not.toContain(other.model);
    const img = await png(m["og:image"]);
    expect([img.width, img.height]).toEqual([1200, 630]);
    expect(img.bytes.equals(generic)).toBe(false);
    expect(img.cache).toBe("private, no-cache");
    // the secret opens its run only: with it as a cookie, another run's image is still the generic card
    const cookie = { cookie: `sw_share=${secret}` };
    const otherImg = Buffer.from(await (await fetch(`${PRIVATE_BASE_URL}/og/runs/${enc(other.key)}`, { headers: cookie })).arrayBuffer());
    expect(otherImg.equals(generic)).toBe(true);
    const ownImg = Buffer.from(await (await fetch(`${PRIVATE_BASE_URL}/og/runs/${enc(SHARED)}`, { headers: cookie })).arrayBuffer());
    expect(ownImg.equals(generic)).toBe(false);
    // a browser opening the link is still sent on to the run page (Node's fetch rewrites Sec-Fetch-*)
    const nav = await browserPage.request.get(link.path, {
      maxRedirects: 0,
      headers: { "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" },
    });
    expect(nav.status()).toBe(303);
    expect(nav.headers()["location"]).toBe(`/runs/${enc(SHARED)}`);

    // revoked: the link's image is the generic card, its page a 404
    expect(
      (await browserPage.request.delete(`${PRIVATE_BASE_URL}/api/v1/share/${link.id}`, { headers: { origin: PRIVATE_BASE_URL } })).status(),
    ).toBe(200);
    expect((await png(`${PRIVATE_BASE_URL}/og/share/${secret}`)).bytes.equals(generic)).toBe(true);
    expect((await page(PRIVATE_BASE_URL + link.path)).status).toBe(404);
  });
});
