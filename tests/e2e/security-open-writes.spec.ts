import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { E2E_DATABASE_URL } from "../../playwright.config";

// The write routes of the open-mode server (reads are public there, writes are not), probed
// with every credential that must not write: none, a forged bearer token, a revoked one, a
// viewer's token, a forged session cookie, an expired session, a share link. Each is 401 or
// 403, no answer holds the marker the bodies carry, and nothing is written.
test.describe.configure({ mode: "serial" });

const MARKER = "SWWRITE4Q8Z";
const DB_FILE = E2E_DATABASE_URL.replace(/^file:/, "");
const cli = (args: string[], input?: string) =>
  execFileSync("node", ["bin/stepwise.mjs", ...args], {
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    input,
    encoding: "utf8",
    stdio: [input ? "pipe" : "ignore", "pipe", "ignore"],
  }).trim();
const secret = () => randomBytes(32).toString("base64url");
const hash = (s: string) => createHash("sha256").update(s).digest("hex");
const iso = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();

const RUN_JSONL =
  [
    { type: "run", key: `write-probe`, model: { name: `Write ${MARKER}` }, benchmark: "generic", variant: { name: "probe" } },
    { type: "item", id: "w-1", length: 1, reference: [MARKER], steps: [MARKER], answer: MARKER, output: MARKER },
  ]
    .map((l) => JSON.stringify(l))
    .join("\n") + "\n";

const creds: Record<string, Record<string, string>> = {};

test.beforeAll(() => {
  const viewerToken = cli(["token", "create", "--name", "probe-viewer", "--role", "viewer"]);
  const revoked = cli(["token", "create", "--name", "probe-revoked", "--role", "editor"]);
  const db = new Database(DB_FILE);
  let shareRun: string;
  try {
    const t = db.prepare(`SELECT "id" FROM "ApiToken" WHERE "hash" = ?`).get(hash(revoked)) as { id: number };
    cli(["token", "revoke", String(t.id)]);
    shareRun = (db.prepare(`SELECT "key" FROM "Run" ORDER BY "id" LIMIT 1`).get() as { key: string }).key;
  } finally {
    db.close();
  }
  const email = `probe-${Date.now()}@e2e.test`;
  cli(["user", "create", "--email", email, "--role", "editor", "--password-stdin"], "probe passphrase 1\n");
  const expired = secret();
  const share = secret();
  const w = new Database(DB_FILE);
  try {
    const user = w.prepare(`SELECT "id" FROM "User" WHERE "email" = ?`).get(email) as { id: number };
    w.prepare(`INSERT INTO "Session" ("hash", "userId", "createdAt", "expiresAt") VALUES (?, ?, ?, ?)`).run(
      hash(expired),
      user.id,
      iso(-7200_000),
      iso(-3600_000),
    );
    w.prepare(`INSERT INTO "ShareLink" ("hash", "runKey", "createdAt") VALUES (?, ?, ?)`).run(hash(share), shareRun, iso(0));
  } finally {
    w.close();
  }
  Object.assign(creds, {
    "no credentials": {},
    "forged bearer token": { authorization: `Bearer sw_${secret()}` },
    "revoked token": { authorization: `Bearer ${revoked}` },
    "viewer token": { authorization: `Bearer ${viewerToken}` },
    "forged session cookie": { cookie: `sw_session=${secret()}` },
    "expired session (an editor's)": { cookie: `sw_session=${expired}` },
    "share link": { cookie: `sw_share=${share}` },
  });
});

const WRITES: { method: "post" | "delete" | "get"; url: string; data?: string | object; ct?: string }[] = [
  { method: "post", url: "/api/v1/runs?name=probe.jsonl", data: RUN_JSONL, ct: "application/x-ndjson" },
  { method: "post", url: "/api/v1/import?name=probe.jsonl", data: RUN_JSONL, ct: "application/octet-stream" },
  {
    method: "post",
    url: "/api/v1/jobs",
    data: { dataset: RUN_JSONL, model: MARKER, baseUrl: "http://127.0.0.1:9/v1", key: "write-probe" },
  },
  { method: "delete", url: "/api/v1/jobs/00000000-0000-0000-0000-000000000000" },
  { method: "post", url: "/api/v1/share", data: { run: "write-probe", label: MARKER } },
  { method: "delete", url: "/api/v1/share/1" },
  { method: "get", url: "/api/v1/share?run=write-probe" },
];

test("open mode: every write route refuses every credential that may not write, and nothing is written", async ({ request, baseURL }) => {
  const wrong: string[] = [];
  for (const [name, headers] of Object.entries(creds)) {
    for (const w of WRITES) {
      const r = await request.fetch(w.url, {
        method: w.method.toUpperCase(),
        headers: { ...headers, origin: baseURL!, ...(w.ct ? { "content-type": w.ct } : {}) },
        data: w.data,
        maxRedirects: 0,
        failOnStatusCode: false,
      });
      const body = await r.text();
      if (![401, 403].includes(r.status()) || body.includes(MARKER))
        wrong.push(`${name}: ${w.method} ${w.url} → ${r.status()} ${body.slice(0, 120)}`);
    }
  }
  expect(wrong).toEqual([]);
  // Other specs may write to this server meanwhile: look for this spec's run only.
  const runs = await (await request.get("/api/v1/runs")).text();
  expect(runs).not.toContain("write-probe");
  expect(await (await request.get("/api/v1/leaderboard")).text()).not.toContain(MARKER);
  const db = new Database(DB_FILE, { readonly: true });
  try {
    expect(db.prepare(`SELECT COUNT(*) AS n FROM "ShareLink" WHERE "label" = ? OR "runKey" = ?`).get(MARKER, "write-probe")).toEqual({
      n: 0,
    });
  } finally {
    db.close();
  }
});
