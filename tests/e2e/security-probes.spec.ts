import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { E2E_PRIVATE_DATABASE_URL, PRIVATE_BASE_URL } from "../../playwright.config";

// The probe suite of docs/security.md: a run on the private server carries a marker string in
// its model name, its reference and the model's output; every page route, export route and API
// read is asked for it with every way in that must fail (no cookie, a forged or expired
// session, a prefetch, an RSC request whose router state already holds the run layout, a share
// link of another run, an expired or a revoked one). No response body, whatever its status,
// may contain the marker; a link-preview image (drawn text, which a byte search cannot see) must
// be the site's generic card, byte for byte. A signed-in viewer asking the same routes is the control: there the
// marker shows, so a probe that finds nothing means something.
test.use({ baseURL: PRIVATE_BASE_URL });
test.describe.configure({ mode: "serial" });

const MARKER = "SWPROBE9F3K";
const KEY = "probe__private-run";
const ITEM = "p-01";
/** A run of the seeded private store, the one other share links open. */
const OTHER = "sim-alpha-8b__lb3-r1_10-mixed__2026-06-01";
const enc = encodeURIComponent;
const DB_FILE = E2E_PRIVATE_DATABASE_URL.replace(/^file:/, "");

const secret = () => randomBytes(32).toString("base64url");
const hash = (s: string) => createHash("sha256").update(s).digest("hex");
const iso = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();

/** The private run: the marker in the model name, every reference value, the output and answer. */
function markerRun(): string {
  const head = {
    type: "run",
    key: KEY,
    model: { name: `Probe ${MARKER} 7B` },
    benchmark: "generic",
    variant: { name: "probe" },
    config: { epochs: 1 },
  };
  const reference = [1, 2, 3].map((i) => `${MARKER}-${i}`);
  const items = [ITEM, "p-02"].map((id, n) => ({
    type: "item",
    id,
    length: 3,
    reference,
    steps: n === 0 ? reference : [reference[0], "wrong", reference[2]],
    answer: reference[2],
    output: `Working: ${reference.join(" then ")}. Answer: ${reference[2]}`,
  }));
  return [head, ...items].map((l) => JSON.stringify(l)).join("\n") + "\n";
}

const S = {
  forgedSession: secret(),
  expiredSession: secret(),
  viewerSession: secret(),
  otherShare: secret(),
  expiredShare: secret(),
  revokedShare: secret(),
};

test.beforeAll(() => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-probe-")), "probe.jsonl");
  fs.writeFileSync(file, markerRun());
  execFileSync("node", ["bin/stepwise.mjs", "ingest", file], { env: { ...process.env, DATABASE_URL: E2E_PRIVATE_DATABASE_URL } });
  // Sessions and share links as the app stores them (SHA-256 of the secret, ISO times), written
  // beside the running server (WAL): an expired session, a live one for the control, and
  // share links (another run's, an expired and a revoked one for the marker run).
  const db = new Database(DB_FILE);
  try {
    const viewer = db.prepare(`SELECT "id" FROM "User" WHERE "email" = ?`).get("viewer@e2e.test") as { id: number };
    const session = db.prepare(`INSERT INTO "Session" ("hash", "userId", "createdAt", "expiresAt") VALUES (?, ?, ?, ?)`);
    session.run(hash(S.expiredSession), viewer.id, iso(-2 * 3600_000), iso(-3600_000));
    session.run(hash(S.viewerSession), viewer.id, iso(0), iso(3600_000));
    const link = db.prepare(`INSERT INTO "ShareLink" ("hash", "runKey", "createdAt", "expiresAt", "revokedAt") VALUES (?, ?, ?, ?, ?)`);
    link.run(hash(S.otherShare), OTHER, iso(0), null, null);
    link.run(hash(S.expiredShare), KEY, iso(-2 * 86_400_000), iso(-60_000), null);
    link.run(hash(S.revokedShare), KEY, iso(-86_400_000), null, iso(-60_000));
  } finally {
    db.close();
  }
});

/** The router state of a client already showing the run page: Next then renders only below the run layout. */
const RUN_LAYOUT_TREE = enc(
  JSON.stringify([
    "",
    { children: ["runs", { children: [["key", KEY, "d"], { children: ["(run)", { children: ["__PAGE__", {}] }] }] }] },
    null,
    null,
    true,
  ]),
);
const RSC = { rsc: "1", "next-router-state-tree": RUN_LAYOUT_TREE };
const PREFETCH = { rsc: "1", "next-router-prefetch": "1", "next-router-segment-prefetch": "/_tree" };
const cookie = (name: string, value: string) => ({ cookie: `${name}=${value}` });

const PROBES: Record<string, Record<string, string>> = {
  "no cookie": {},
  "forged session": cookie("sw_session", S.forgedSession),
  "expired session": cookie("sw_session", S.expiredSession),
  prefetch: PREFETCH,
  "prefetch, forged session": { ...PREFETCH, ...cookie("sw_session", S.forgedSession) },
  "RSC with the run layout in its router state": { ...RSC, ...cookie("sw_session", S.forgedSession) },
  "RSC with the run layout, share link of another run": { ...RSC, ...cookie("sw_share", S.otherShare) },
  "share link of another run": cookie("sw_share", S.otherShare),
  "prefetch, share link of another run": { ...PREFETCH, ...cookie("sw_share", S.otherShare) },
  "expired share link": cookie("sw_share", S.expiredShare),
  "revoked share link": cookie("sw_share", S.revokedShare),
  "forged bearer token": { authorization: `Bearer sw_${secret()}` },
};

const RUN = `/runs/${enc(KEY)}`;
const PAGES = [
  RUN,
  `${RUN}?tab=items`,
  `${RUN}?tab=failures`,
  `${RUN}?tab=items&q=Working`,
  `${RUN}/items/${ITEM}`,
  `${RUN}/items/${ITEM}?epoch=0`,
  "/",
  "/?benchmark=generic",
  `/curves?runs=${enc(KEY)}`,
  `/compare?runs=${enc(OTHER)},${enc(KEY)}`,
  `/compare?runs=${enc(KEY)},${enc(OTHER)}`,
  "/self-conditioning",
  "/jobs",
  "/study",
  "/study?benchmark=generic",
];
const EXPORTS = [
  `/export/runs/${enc(KEY)}/items`,
  `/export/runs/${enc(KEY)}/items?format=json`,
  "/export/leaderboard",
  "/export/leaderboard?format=json",
  "/study/csv",
  "/study/csv?benchmark=generic",
];
const API_READS = [
  "/api/v1/runs",
  "/api/v1/leaderboard",
  `/api/v1/runs/${enc(KEY)}/metrics`,
  "/api/v1/jobs",
  `/api/v1/share?run=${enc(KEY)}`,
  "/api/v1/study",
];

// Link-preview images: a refused request gets the generic card (/og/site), whatever it asked for.
const PREVIEWS = [
  `/og/runs/${enc(KEY)}`,
  `/og/runs/${enc(KEY)}?v=0`,
  `/og/runs/${enc(KEY)}/items/${ITEM}`,
  `/og/compare?runs=${enc(OTHER)},${enc(KEY)}`,
  `/og/share/${S.expiredShare}`,
  `/og/share/${S.revokedShare}`,
];
let genericCard: Buffer | undefined;
async function generic(request: APIRequestContext): Promise<Buffer> {
  genericCard ??= await (await request.get("/og/site")).body();
  return genericCard;
}

/** A body with the requested key and the per-request CSP nonce blanked out. */
function scrub(body: string, key: string): string {
  const nonce = /nonce="([^"]+)"/.exec(body)?.[1];
  const out = body.replaceAll(enc(key), "K").replaceAll(key, "K");
  return nonce ? out.replaceAll(nonce, "N") : out;
}

async function probe(request: APIRequestContext, url: string, headers: Record<string, string>) {
  const r = await request.get(url, { headers, maxRedirects: 0, failOnStatusCode: false });
  const bytes = await r.body();
  return { status: r.status(), bytes, body: bytes.toString("utf8"), location: r.headers()["location"] ?? "" };
}

test("the control: a signed-in viewer sees the marker on every route the probes ask", async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: PRIVATE_BASE_URL });
  const missing: string[] = [];
  for (const url of [
    ...PAGES.filter((p) => !["/", "/self-conditioning", "/jobs"].includes(p) && !p.startsWith("/study")),
    ...EXPORTS.filter((p) => !p.startsWith("/study")),
    ...API_READS.slice(0, 3),
  ]) {
    const r = await probe(request, url, cookie("sw_session", S.viewerSession));
    // The item export lists answers; the other exports and pages name the model ("/" shows
    // another benchmark, self-conditioning and jobs have nothing of this run, the study pools
    // runs by its own rules).
    if (!r.body.includes(MARKER)) missing.push(`${url} (${r.status})`);
  }
  // the run's own preview images: drawn, so not the generic card
  for (const url of PREVIEWS.slice(0, 4)) {
    const r = await probe(request, url, cookie("sw_session", S.viewerSession));
    if (r.bytes.equals(await generic(request))) missing.push(`${url} (the generic card)`);
  }
  expect(missing).toEqual([]);
  await request.dispose();
});

for (const [name, headers] of Object.entries(PROBES)) {
  test(`probe: ${name}: no page, export or API body holds the private run's data`, async ({ playwright }) => {
    const request = await playwright.request.newContext({ baseURL: PRIVATE_BASE_URL });
    const leaks: string[] = [];
    const statuses: string[] = [];
    for (const url of [...PAGES, ...EXPORTS, ...API_READS, ...PREVIEWS]) {
      const r = await probe(request, url, headers);
      // (an RSC request is first sent to its cache-busting URL by Next: a 307 without a body)
      if (url.startsWith("/og/") && r.status !== 307 && !r.bytes.equals(await generic(request)))
        leaks.push(`${r.status} ${url}: not the generic card`);
      statuses.push(`${r.status} ${url}`);
      if (r.body.includes(MARKER) || r.location.includes(MARKER)) leaks.push(`${r.status} ${url}`);
      // Never a success for the marker run's own routes.
      if (url.includes(enc(KEY)) && !/^\/(compare|curves|og)\b/.test(url) && r.status === 200 && !headers.rsc) leaks.push(`200 for ${url}`);
    }
    expect(leaks, statuses.join("\n")).toEqual([]);
    await request.dispose();
  });
}

test("a share-link holder asking for another run gets the same 404 as for a run that does not exist", async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: PRIVATE_BASE_URL });
  const share = cookie("sw_share", S.otherShare);
  for (const [known, unknown] of [
    [RUN, "/runs/no-such-run"],
    [`${RUN}/items/${ITEM}`, `/runs/no-such-run/items/${ITEM}`],
    [`/export/runs/${enc(KEY)}/items`, "/export/runs/no-such-run/items"],
    [`/api/v1/runs/${enc(KEY)}/metrics`, "/api/v1/runs/no-such-run/metrics"],
  ]) {
    const a = await probe(request, known, share);
    const b = await probe(request, unknown, share);
    expect(a.status, known).toBe(404);
    expect(b.status, unknown).toBe(404);
    // Same answer but for the key the visitor typed itself and the page's per-request CSP nonce.
    // Streamed rows may arrive in either order: compare them as a sorted list.
    const rows = (body: string) => body.split(/\\n|<\/script>/).sort();
    expect(rows(scrub(a.body, KEY)), `${known} vs ${unknown}`).toEqual(rows(scrub(b.body, "no-such-run")));
  }
  // Its own run still opens.
  expect((await probe(request, `/runs/${enc(OTHER)}`, share)).status).toBe(200);
  await request.dispose();
});
