import fs from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSession, SESSION_COOKIE } from "../../lib/auth/sessions";
import { createShareLink, SHARE_COOKIE } from "../../lib/auth/share-links";
import { createUser } from "../../lib/auth/users";
import type { Store } from "../../lib/db";
import { env } from "../../lib/env";
import { createToken } from "../../lib/store/tokens";
import { EXAMPLES } from "../helpers/fixtures";
import { STORE_KINDS } from "../helpers/stores";

// The write API's gate through the route handlers themselves: 401 / 403 / 413 / 429, sessions
// with the same-origin (CSRF) check, and share-link reads of the metrics API.
type G = typeof globalThis & { __stepwiseStore?: Promise<Store> };
const g = globalThis as G;
const BODY = fs.readFileSync(path.join(EXAMPLES, "arith-small.jsonl"), "utf8");
const RUN_KEY = JSON.parse(BODY.split("\n")[0]).key as string;

describe("write API authorization, limits and share reads", () => {
  let store: Store;
  let drop: () => Promise<void>;
  let editor: string;
  let viewer: string;
  let session: string;
  let viewerSession: string;
  let runs: typeof import("../../app/api/v1/runs/route");
  let metrics: typeof import("../../app/api/v1/runs/[key]/metrics/route");
  let studyCsv: typeof import("../../app/study/csv/route");

  beforeAll(async () => {
    ({ store, drop } = await STORE_KINDS[0].create());
    g.__stepwiseStore = Promise.resolve(store);
    editor = (await createToken(store.prisma, "editor")).secret;
    viewer = (await createToken(store.prisma, "viewer", { role: "viewer" })).secret;
    const ed = await createUser(store.prisma, { email: "ed@example.org", role: "editor", password: "editor password" });
    const vi = await createUser(store.prisma, { email: "vi@example.org", role: "viewer", password: "viewer password" });
    session = (await createSession(store.prisma, ed.id, 1)).secret;
    viewerSession = (await createSession(store.prisma, vi.id, 1)).secret;
    runs = await import("../../app/api/v1/runs/route");
    metrics = await import("../../app/api/v1/runs/[key]/metrics/route");
    studyCsv = await import("../../app/study/csv/route");
  });
  beforeEach(async () => {
    // the write budget is in the store (lib/api/rate-limit.ts): a fresh one per test
    env.STEPWISE_WRITE_RATE_PER_MIN = 60;
    env.STEPWISE_WRITE_BURST = 100;
    await store.prisma.rateBucket.deleteMany();
    env.STEPWISE_MAX_BODY_MB = 512;
    env.STEPWISE_ACCESS = "open";
  });
  afterAll(async () => {
    g.__stepwiseStore = undefined;
    await drop?.();
  });

  const post = (headers: Record<string, string>, body: BodyInit = BODY) =>
    runs.POST(
      new NextRequest("http://localhost:3000/api/v1/runs", {
        method: "POST",
        body,
        headers: { host: "localhost:3000", ...headers },
        duplex: "half",
      } as ConstructorParameters<typeof NextRequest>[1]),
    );

  it("401 without credentials or with a wrong token, 403 for a viewer token", async () => {
    const none = await post({});
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await post({ authorization: "Bearer sw_wrong" })).status).toBe(401);
    expect((await post({ authorization: `Bearer ${viewer}` })).status).toBe(403);
    expect(await store.prisma.run.count()).toBe(0);
  });

  it("reads a small refused body before answering (a reply mid-upload can reach the client as a reset)", async () => {
    const req = (headers: Record<string, string>) =>
      new NextRequest("http://localhost:3000/api/v1/runs", {
        method: "POST",
        body: BODY,
        headers: { host: "localhost:3000", "content-length": String(Buffer.byteLength(BODY)), ...headers },
        duplex: "half",
      } as ConstructorParameters<typeof NextRequest>[1]);
    const refused = req({ authorization: `Bearer ${viewer}` });
    expect((await runs.POST(refused)).status).toBe(403);
    expect(refused.bodyUsed).toBe(true);
    const anonymous = req({});
    expect((await runs.POST(anonymous)).status).toBe(401);
    expect(anonymous.bodyUsed).toBe(true);
  });

  it("an editor's session writes from the same origin only (CSRF)", async () => {
    const cookie = `${SESSION_COOKIE}=${session}`;
    expect((await post({ cookie })).status).toBe(403); // no Origin, no Sec-Fetch-Site
    expect((await post({ cookie, origin: "https://evil.example" })).status).toBe(403);
    expect((await post({ cookie, origin: "http://localhost:3000", "sec-fetch-site": "cross-site" })).status).toBe(201);
    expect((await post({ cookie: `${SESSION_COOKIE}=${viewerSession}`, origin: "http://localhost:3000" })).status).toBe(403);
    // The job form sends "Bearer " with a blank token field: the session still counts.
    expect((await post({ cookie, origin: "http://localhost:3000", authorization: "Bearer " })).status).toBe(201);
  });

  it("413 for a declared or streamed body over STEPWISE_MAX_BODY_MB, and nothing is written", async () => {
    await store.prisma.run.deleteMany();
    env.STEPWISE_MAX_BODY_MB = 0.001; // ~1 kB
    const declared = await post({ authorization: `Bearer ${editor}`, "content-length": String(Buffer.byteLength(BODY)) });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ limit_bytes: 1048, error: "the request body is over the limit of 1 kB" });
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(BODY));
        c.close();
      },
    });
    const streamed = await post({ authorization: `Bearer ${editor}` }, stream);
    expect(streamed.status).toBe(413);
    expect(await store.prisma.run.count()).toBe(0);
  });

  it("429 with Retry-After once a token's burst is spent; other tokens are unaffected", async () => {
    env.STEPWISE_WRITE_RATE_PER_MIN = 6;
    env.STEPWISE_WRITE_BURST = 2;
    const bad = "not json\n";
    expect((await post({ authorization: `Bearer ${editor}` }, bad)).status).toBe(422);
    expect((await post({ authorization: `Bearer ${editor}` }, bad)).status).toBe(422);
    const limited = await post({ authorization: `Bearer ${editor}` }, bad);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("10");
    expect(await limited.json()).toMatchObject({ retry_after: 10 });
    const other = (await createToken(store.prisma, "other")).secret;
    expect((await post({ authorization: `Bearer ${other}` }, bad)).status).toBe(422);
  });

  it("private mode: the metrics API needs a reader, or a share link for that very run", async () => {
    await post({ authorization: `Bearer ${editor}` });
    env.STEPWISE_ACCESS = "private";
    const get = (key: string, headers: Record<string, string> = {}) =>
      metrics.GET(new NextRequest(`http://localhost/api/v1/runs/${encodeURIComponent(key)}/metrics`, { headers }), {
        params: Promise.resolve({ key: encodeURIComponent(key) }),
      });
    expect((await get(RUN_KEY)).status).toBe(401);
    expect((await get(RUN_KEY, { authorization: `Bearer ${viewer}` })).status).toBe(200);
    expect((await get(RUN_KEY, { cookie: `${SESSION_COOKIE}=${viewerSession}` })).status).toBe(200);
    const link = await createShareLink(store.prisma, { runKey: RUN_KEY, createdById: null, expiresAt: null });
    const other = await createShareLink(store.prisma, { runKey: "some-other-run", createdById: null, expiresAt: null });
    expect((await get(RUN_KEY, { cookie: `${SHARE_COOKIE}=${link.secret}` })).status).toBe(200);
    // A link to another run: the same 404 as for a run that does not exist, nothing about this one.
    const refused = await get(RUN_KEY, { cookie: `${SHARE_COOKIE}=${other.secret}` });
    const missing = await get("no-such-run", { cookie: `${SHARE_COOKIE}=${other.secret}` });
    expect([refused.status, missing.status]).toEqual([404, 404]);
    expect(Object.keys(await refused.json())).toEqual(["error"]);
    const list = await runs.GET(new NextRequest("http://localhost/api/v1/runs", { headers: { cookie: `${SHARE_COOKIE}=${link.secret}` } }));
    expect(list.status).toBe(401);
  });

  it("private mode: the study CSV checks the request before reading, like the other exports", async () => {
    await post({ authorization: `Bearer ${editor}` });
    env.STEPWISE_ACCESS = "private";
    const get = (headers: Record<string, string> = {}) => studyCsv.GET(new NextRequest("http://localhost/study/csv?x=length", { headers }));
    const link = await createShareLink(store.prisma, { runKey: RUN_KEY, createdById: null, expiresAt: null });
    for (const refused of [
      await get(),
      await get({ cookie: `${SHARE_COOKIE}=${link.secret}` }),
      await get({ authorization: "Bearer sw_forged" }),
    ]) {
      expect(refused.status).toBe(307);
      expect(refused.headers.get("location")).toBe("/login?next=%2Fstudy%2Fcsv%3Fx%3Dlength");
      expect(await refused.text()).toBe("");
    }
    const ok = await get({ cookie: `${SESSION_COOKIE}=${viewerSession}` });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(await ok.text()).toContain(RUN_KEY);
  });
});
