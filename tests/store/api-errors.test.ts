import fs from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Store } from "../../lib/db";
import { env } from "../../lib/env";
import { loadNative } from "../../lib/store/load";
import { EXAMPLES } from "../helpers/fixtures";
import { STORE_KINDS } from "../helpers/stores";

// What the API answers when a request cannot be served, through the route handlers on a real
// store: 400 for a parameter that cannot be a run key, 404 for an unknown run, 500 for a bug
// with a request id and none of the internal message (logged on the server under that id).
// The 503 of an unreachable store is tests/store/faults-outage.test.ts.
type G = typeof globalThis & { __stepwiseStore?: Promise<Store>; __stepwiseStoreFile?: string | null };
const g = globalThis as G;
const BODY = fs.readFileSync(path.join(EXAMPLES, "arith-small.jsonl"), "utf8");
const RUN_KEY = JSON.parse(BODY.split("\n")[0]).key as string;

describe.each(STORE_KINDS)("API errors on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  let metrics: typeof import("../../app/api/v1/runs/[key]/metrics/route");
  const get = (segment: string) =>
    metrics.GET(new NextRequest(`http://localhost/api/v1/runs/${segment}/metrics`), { params: Promise.resolve({ key: segment }) });

  beforeAll(async () => {
    ({ store, drop } = await kind.create());
    expect((await loadNative(store, "arith-small.jsonl", [BODY])).errors).toEqual([]);
    g.__stepwiseStore = Promise.resolve(store);
    g.__stepwiseStoreFile = undefined;
    env.STEPWISE_ACCESS = "open";
    metrics = await import("../../app/api/v1/runs/[key]/metrics/route");
  });
  afterAll(async () => {
    g.__stepwiseStore = undefined;
    await drop?.();
  });

  it("200 for a run, its key decoded the shared way", async () => {
    expect((await get(encodeURIComponent(RUN_KEY))).status).toBe(200);
  });

  it("400 for a key that cannot be a run key (NUL, control characters, too long)", async () => {
    for (const segment of ["%00", "a%0Ab", "x".repeat(1001)]) {
      const r = await get(segment);
      expect(r.status, segment).toBe(400);
      expect((await r.json()).error).toMatch(/run key/);
    }
  });

  it("404 for an unknown run", async () => {
    const r = await get("no-such-run");
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ error: "no run with key 'no-such-run'" });
  });

  it("500 for a bug: a request id, no internal message; the message is logged under the id", async () => {
    // A stored value the reader cannot parse: JSON.parse's message quotes the stored text.
    await store.prisma.run.update({ where: { key: RUN_KEY }, data: { metrics: "not json: /srv/secret/path" } });
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const r = await get(encodeURIComponent(RUN_KEY));
      expect(r.status).toBe(500);
      expect(r.headers.get("retry-after")).toBeNull();
      const text = await r.text();
      expect(text).not.toMatch(/secret|not json|JSON|SyntaxError/);
      const body = JSON.parse(text) as { error: string; request_id: string };
      expect(Object.keys(body).sort()).toEqual(["error", "request_id"]);
      expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.headers.get("x-request-id")).toBe(body.request_id);
      const logged = log.mock.calls.map((c) => c.map(String).join(" ")).find((l) => l.includes(body.request_id));
      expect(logged).toMatch(/not json/);
    } finally {
      log.mockRestore();
    }
  });
});
