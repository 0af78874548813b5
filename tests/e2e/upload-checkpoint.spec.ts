import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { writeRun } from "../helpers/faults";
import { cli, startServer, type ServerProcess } from "../helpers/server-process";

// An upload's SQLite checkpoint runs after its commit on a thread of its own inside `next start`
// (lib/store/checkpoint-thread.ts): the server's bundle must find the driver from that thread,
// and the store's file must then hold the run, not only its WAL. Without that thread the
// checkpoint fell to the first request after the upload (~0.8 s at 100,000 items, on the thread
// that answers requests). Server on E2E_PORT + 8.

const PORT = Number(process.env.E2E_PORT ?? 3100) + 8;
// SQLite's own threshold is 1,000 WAL pages of 16 kB; 10,000 arithmetic items with outputs (39 MB) write ~25 MB
const ITEMS_PER_LENGTH = 1000;

test("an upload's checkpoint runs on its own thread in next start", async () => {
  test.setTimeout(180_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-checkpoint-"));
  const store = path.join(dir, "store.db");
  const url = "file:" + store;
  let server: ServerProcess | undefined;
  try {
    cli(url, "migrate");
    const token = cli(url, "token", "create", "--name", "uploader").match(/sw_[\w-]+/)![0];
    const file = path.join(dir, "arith.jsonl");
    writeRun(file, {
      runKey: "checkpoint",
      lengths: [5, 15, 25, 35, 45, 55, 65, 75, 85, 95],
      itemsPerLength: ITEMS_PER_LENGTH,
      seed: 3,
      simulateP: 0.98,
    });
    server = await startServer(PORT, { DATABASE_URL: url });
    const before = fs.statSync(store).size;
    const res = await fetch(`${server.url}/api/v1/runs?name=arith.jsonl`, {
      method: "POST",
      body: fs.readFileSync(file),
      headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
    });
    expect(res.status, await res.text()).toBe(201);
    // the run's pages reach the store's file from the checkpoint's thread, no request asking
    await expect.poll(() => fs.statSync(store).size - before, { timeout: 30_000 }).toBeGreaterThan(16 << 20);
    expect(server.output()).not.toMatch(/checkpoint after a load failed/);
  } finally {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
