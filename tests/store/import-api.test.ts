import fs from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { createToken } from "../../lib/store/tokens";
import { describeRealdata, REALDATA } from "../helpers/shared-data";
import { STORE_KINDS } from "../helpers/stores";

// POST /api/v1/import through the route handler itself, on a fresh SQLite store.
describe("POST /api/v1/import", () => {
  let store: Store;
  let drop: () => Promise<void>;
  let secret: string;
  let POST: (req: NextRequest) => Promise<Response>;
  beforeAll(async () => {
    const made = await STORE_KINDS[0].create();
    ({ store, drop } = made);
    // the route's getStore() shares the process-wide store: hand it this test's store
    (globalThis as { __stepwiseStore?: Promise<Store> }).__stepwiseStore = Promise.resolve(store);
    ({ secret } = await createToken(store.prisma, "import-test"));
    ({ POST } = await import("../../app/api/v1/import/route"));
  });
  afterAll(async () => {
    (globalThis as { __stepwiseStore?: Promise<Store> }).__stepwiseStore = undefined;
    await drop?.();
  });

  const post = (query: string, body: BodyInit | null, token: string | null = secret) =>
    POST(
      new NextRequest(`http://localhost/api/v1/import${query}`, {
        method: "POST",
        body,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        duplex: "half",
      } as ConstructorParameters<typeof NextRequest>[1]),
    );

  it("needs a token", async () => {
    const r = await post("", "{}", null);
    expect(r.status).toBe(401);
  });

  describeRealdata("POST /api/v1/import of a real file", () => {
    it("imports a file sent as the body, the name giving the model", async () => {
      const body = fs.readFileSync(path.join(REALDATA, "illusion-repro-ping98k/self_conditioning_80B_3A_5Q.json"));
      const r = await post("?name=self_conditioning_80B_3A_5Q.json", body);
      expect(r.status).toBe(201);
      const j = await r.json();
      expect(j).toMatchObject({ format: "selfcond", runs: [{ key: "selfcond__qwen3-coder-next-80b", generations: 500 }] });
    });
  });

  it("answers 422 with named errors, and 400 for bad options", async () => {
    const r = await post(
      "?name=x.json",
      '{"experiment":"self_conditioning","config":{},"data":{"0.5":{"samples":[{"sample_idx":0}]}}}',
      secret,
    );
    expect(r.status).toBe(422);
    const j = await r.json();
    expect(j.errors[0]).toMatchObject({ file: "x.json", line: 0 });
    const bad = await post("?format=csv", "{}");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/format must be one of/);
  });
});
