import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_PRIVATE_DATABASE_URL, PRIVATE_BASE_URL, PRIVATE_LIMITS } from "../../playwright.config";
import { EXAMPLES } from "../helpers/fixtures";

// 401 / 413 / 429 of the write API on the private server (body limit 64 kB, burst 8, then one
// write a minute per token).
test.use({ baseURL: PRIVATE_BASE_URL });
test.describe.configure({ mode: "serial" });

const cli = (...args: string[]) =>
  execFileSync("node", ["bin/stepwise.mjs", ...args], {
    env: { ...process.env, DATABASE_URL: E2E_PRIVATE_DATABASE_URL },
    encoding: "utf8",
  }).trim();
const EXAMPLE = fs.readFileSync(path.join(EXAMPLES, "generic-small.jsonl"));
const LIMIT = Math.floor(PRIVATE_LIMITS.maxBodyMb * 1024 * 1024);

test("writes without a valid token are 401 with WWW-Authenticate; a viewer token is 403", async ({ request }) => {
  for (const url of ["/api/v1/runs", "/api/v1/import", "/api/v1/jobs", "/api/v1/share"]) {
    const r = await request.post(url, { data: "{}" });
    expect(r.status(), url).toBe(401);
    expect(r.headers()["www-authenticate"], url).toMatch(/^Bearer/);
  }
  expect((await request.post("/api/v1/runs", { data: "{}", headers: { authorization: "Bearer sw_nope" } })).status()).toBe(401);
  const viewer = cli("token", "create", "--name", "viewer", "--role", "viewer");
  expect((await request.post("/api/v1/runs", { data: EXAMPLE, headers: { authorization: `Bearer ${viewer}` } })).status()).toBe(403);
});

test("bodies over the limit get a 413 JSON error and load nothing", async ({ request }) => {
  const token = cli("token", "create", "--name", "big");
  const auth = { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" };
  const big = Buffer.concat([EXAMPLE, Buffer.alloc(LIMIT, " ")]);
  const r = await request.post("/api/v1/runs", { data: big, headers: auth });
  expect(r.status()).toBe(413);
  expect(await r.json()).toEqual({ error: "the request body is over the limit of 64 kB", limit_bytes: LIMIT });
  const up = await request.post("/api/v1/jobs", { data: big, headers: { ...auth, "content-type": "application/json" } });
  expect(up.status()).toBe(413);
  const runs = await (await request.get("/api/v1/runs", { headers: { authorization: `Bearer ${token}` } })).json();
  expect(runs.map((x: { key: string }) => x.key)).not.toContain("sim-delta-2b__list-procedures-demo__2026-06-01");
});

test("a token's writes beyond its burst get 429 with Retry-After; other tokens still write", async ({ request }) => {
  const token = cli("token", "create", "--name", "burst");
  const auth = { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" };
  const statuses: number[] = [];
  let retryAfter: string | undefined;
  for (let i = 0; i < PRIVATE_LIMITS.burst + 2; i++) {
    const r = await request.post("/api/v1/runs", { data: EXAMPLE, headers: auth });
    statuses.push(r.status());
    if (r.status() === 429) {
      retryAfter = r.headers()["retry-after"];
      expect(await r.json()).toMatchObject({ error: expect.stringContaining("too many write requests") });
    }
  }
  expect(statuses).toEqual([...Array(PRIVATE_LIMITS.burst).fill(201), 429, 429]);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  const other = cli("token", "create", "--name", "other");
  expect((await request.post("/api/v1/runs", { data: EXAMPLE, headers: { ...auth, authorization: `Bearer ${other}` } })).status()).toBe(
    201,
  );
});
