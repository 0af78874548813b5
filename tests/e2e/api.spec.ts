import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_DATABASE_URL } from "../../playwright.config";
import { EXAMPLES } from "../helpers/fixtures";

// The JSON API of SPEC §6 against the running server and its seeded store.
const cli = (...args: string[]) =>
  execFileSync("node", ["bin/stepwise.mjs", ...args], { env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL }, encoding: "utf8" }).trim();

test.describe.configure({ mode: "serial" });

test("lists runs and serves a run's metrics in the §6 shape", async ({ request }) => {
  const runs = await (await request.get("/api/v1/runs")).json();
  expect(runs.length).toBeGreaterThan(20);
  expect(Object.keys(runs[0]).sort()).toEqual(["benchmark", "created_at", "generations", "items", "key", "model", "variant"]);

  const key = "sim-alpha-8b__lb3-r1_10-mixed__2026-06-01";
  const res = await request.get(`/api/v1/runs/${encodeURIComponent(key)}/metrics`);
  expect(res.status()).toBe(200);
  const m = await res.json();
  const expected = JSON.parse(fs.readFileSync(path.join(EXAMPLES, "expected", `${key}.json`), "utf8"));
  expect(Object.keys(m).sort()).toEqual(Object.keys(expected).sort());
  expect(m.failure_modes).toEqual(expected.failure_modes);
  expect(m.horizon.steps).toBe(expected.horizon.steps);
  expect(JSON.parse(cli("metrics", "--run", key, "--json"))).toEqual(m);

  const missing = await request.get(`/api/v1/runs/${encodeURIComponent("no such run")}/metrics`);
  expect(missing.status()).toBe(404);
  expect((await missing.json()).error).toContain("no such run");
});

test("serves the leaderboard as JSON with the page's filters", async ({ request }) => {
  const all = await (await request.get("/api/v1/leaderboard?pageSize=200")).json();
  const arith = await (await request.get("/api/v1/leaderboard?benchmark=procedural-arith&pageSize=200")).json();
  expect(arith.rows.length).toBeGreaterThan(0);
  expect(arith.rows.length).toBeLessThan(all.rows.length);
  expect(arith.rows.every((r: { benchmark: string }) => r.benchmark === "procedural-arith")).toBe(true);
});

test("POST /api/v1/runs needs a token, loads a valid body and refuses a bad one whole", async ({ request }) => {
  const body = fs.readFileSync(path.join(EXAMPLES, "generic-small.jsonl"), "utf8").replace(/"key":"[^"]+"/, '"key":"api-upload-test"');
  expect((await request.post("/api/v1/runs", { data: body })).status()).toBe(401);
  expect((await request.post("/api/v1/runs", { data: body, headers: { Authorization: "Bearer sw_wrong" } })).status()).toBe(401);

  const token = cli("token", "create", "--name", "e2e");
  const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/x-ndjson" };
  const ok = await request.post("/api/v1/runs", { data: body, headers: auth });
  expect(ok.status()).toBe(201);
  expect((await ok.json()).runs).toEqual([expect.objectContaining({ key: "api-upload-test", items: 10 })]);

  const before = await (await request.get("/api/v1/runs")).json();
  const bad = await request.post("/api/v1/runs", { data: fs.readFileSync(path.join(EXAMPLES, "invalid.jsonl")), headers: auth });
  expect(bad.status()).toBe(422);
  const { errors } = await bad.json();
  expect(errors).toContainEqual(expect.objectContaining({ line: 4, field: "input.steps[1].op" }));
  expect(await (await request.get("/api/v1/runs")).json()).toEqual(before);
});
