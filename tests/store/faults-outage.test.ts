// The database goes away and comes back while the server process keeps running. Tested at the
// store level through the API route handlers themselves (GET /api/v1/runs and
// /api/v1/runs/{key}/metrics) and the process-wide getStore(): during the outage they answer
// 503 JSON with Retry-After; afterwards they answer 200 again, no restart.
//   SQLite: the store's directory is moved away (an unmounted volume), then put back; and the
//   file is replaced by a restored backup while the server runs.
//   PostgreSQL: a dedicated database has its connections terminated and is renamed away
//   (connections refused), then renamed back; and the server starts during the outage.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getStore, openStore, type Store } from "../../lib/db";
import { env } from "../../lib/env";
import { loadNative } from "../../lib/store/load";
import { writeRun } from "../helpers/faults";
import { STORE_KINDS } from "../helpers/stores";

const KEY = "faults__outage";
type Handler = (req: NextRequest, ctx: { params: Promise<{ key: string }> }) => Promise<Response>;
const cache = globalThis as { __stepwiseStore?: Promise<Store>; __stepwiseStoreFile?: string | null };

let listRuns: (req: NextRequest) => Promise<Response>;
let metrics: Handler;
beforeAll(async () => {
  listRuns = (await import("../../app/api/v1/runs/route")).GET as unknown as (req: NextRequest) => Promise<Response>;
  metrics = (await import("../../app/api/v1/runs/[key]/metrics/route")).GET as unknown as Handler;
});

async function api() {
  const runs = await listRuns(new NextRequest("http://localhost/api/v1/runs"));
  const m = await metrics(new NextRequest(`http://localhost/api/v1/runs/${KEY}/metrics`), { params: Promise.resolve({ key: KEY }) });
  return {
    runs: { status: runs.status, retry: runs.headers.get("retry-after"), body: await runs.json() },
    metrics: { status: m.status, retry: m.headers.get("retry-after"), body: await m.json() },
  };
}

/**
 * Both calls answer 503 JSON with Retry-After and say the store is unavailable, with a request
 * id and not the reason (it may name a file); the reason is in the server's log under that id.
 */
async function expectUnavailable(detail?: RegExp) {
  const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
  try {
    const r = await api();
    for (const x of [r.runs, r.metrics]) {
      expect(x.status).toBe(503);
      expect(x.retry).toBe("5");
      expect(Object.keys(x.body).sort()).toEqual(["error", "request_id"]);
      expect(x.body.error).toBe("the store is unavailable");
      const logged = log.mock.calls.map((c) => c.join(" ")).find((l) => l.includes(x.body.request_id));
      expect(logged, "the reason is logged under the request id").toBeDefined();
      if (detail) expect(logged).toMatch(detail);
    }
  } finally {
    log.mockRestore();
  }
}

async function expectServing(generations: number) {
  const r = await api();
  expect(r.runs.status, JSON.stringify(r.runs.body)).toBe(200);
  expect(r.runs.body.find((x: { key: string }) => x.key === KEY)?.generations).toBe(generations);
  expect(r.metrics.status).toBe(200);
  expect(r.metrics.body.generations).toBe(generations);
}

describe.each(STORE_KINDS)("the database going away and coming back on $name", (kind) => {
  let url: string;
  let drop: () => Promise<void>;
  let dir: string;
  const savedUrl = env.DATABASE_URL;

  beforeAll(async () => {
    let store: Store;
    ({ store, url, drop } = await kind.create());
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-faults-outage-"));
    writeRun(path.join(dir, "A.jsonl"), { runKey: KEY, lengths: [5, 15], itemsPerLength: 10, seed: 31 });
    writeRun(path.join(dir, "B.jsonl"), { runKey: KEY, lengths: [5, 15], itemsPerLength: 15, seed: 32 });
    expect((await loadNative(store, "A.jsonl", fs.createReadStream(path.join(dir, "A.jsonl")))).errors).toEqual([]);
    env.DATABASE_URL = url; // the route handlers' process-wide store
    cache.__stepwiseStore = undefined;
  });
  afterAll(async () => {
    env.DATABASE_URL = savedUrl;
    cache.__stepwiseStore = undefined;
    await drop?.();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  if (kind.name === "sqlite") {
    it("directory moved away: 503 while it is gone (not stale data), 200 once it is back", async () => {
      const storeDir = path.dirname(url.replace(/^file:/, ""));
      await expectServing(20);
      fs.renameSync(storeDir, storeDir + ".away");
      try {
        await expectUnavailable(/has gone away/);
        await expectUnavailable(/has gone away/); // still gone: no empty store created in its place
        expect(fs.existsSync(storeDir)).toBe(false);
      } finally {
        fs.renameSync(storeDir + ".away", storeDir);
      }
      await expectServing(20);
    });

    it("file replaced by a restored backup: the next request serves the restored content", async () => {
      const file = url.replace(/^file:/, "");
      const backup = path.join(dir, "backup.db");
      const b = await openStore("file:" + backup);
      expect((await loadNative(b, "B.jsonl", fs.createReadStream(path.join(dir, "B.jsonl")))).errors).toEqual([]);
      await b.close(); // checkpoints: the backup is one self-contained file
      await expectServing(20);
      // A restore swaps the file in whole; the old WAL and shared memory go with the old file.
      for (const ext of ["-wal", "-shm"]) fs.rmSync(file + ext, { force: true });
      fs.renameSync(backup, file);
      await expectServing(30);
    });
  } else {
    const admin = async (sql: string) => {
      const c = new pg.Client({ connectionString: process.env.STEPWISE_TEST_PG });
      await c.connect();
      try {
        await c.query(sql);
      } finally {
        await c.end();
      }
    };
    const database = () => new URL(url).pathname.slice(1);
    const terminate = () =>
      admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database()}' AND pid <> pg_backend_pid()`);
    const away = async () => {
      await terminate();
      await admin(`ALTER DATABASE "${database()}" RENAME TO "${database()}_away"`);
    };
    const back = () => admin(`ALTER DATABASE "${database()}_away" RENAME TO "${database()}"`);

    it("connections terminated (a restart): requests recover on their own", async () => {
      await expectServing(20);
      await terminate();
      // The pool may hand out one connection the server already closed; within a few
      // requests every answer is 200 again.
      let ok = 0;
      for (let i = 0; i < 5 && ok < 2; i++) {
        const r = await api();
        if (r.runs.status === 200 && r.metrics.status === 200) ok++;
        else for (const x of [r.runs, r.metrics]) if (x.status !== 200) expect(x.status).toBe(503);
      }
      expect(ok).toBe(2);
    });

    it("database gone (connections refused): 503 meanwhile, 200 after it is back", async () => {
      await expectServing(20);
      await away();
      try {
        await expectUnavailable(/does not exist/);
      } finally {
        await back();
      }
      await expectServing(20);
    });

    it("server starting during the outage: 503, then the store opens on a later request", async () => {
      cache.__stepwiseStore = undefined;
      await away();
      try {
        await expect(getStore()).rejects.toThrow(/does not exist/);
        await expectUnavailable(/does not exist/);
      } finally {
        await back();
      }
      await expectServing(20);
    });
  }
});
