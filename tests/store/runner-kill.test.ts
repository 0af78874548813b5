// Kill -9 the real CLI mid-run, start it again with the same --run-key: the run finishes with
// every generation stored exactly once. The child writes to the same store as the test (SQLite
// file or PostgreSQL database) through DATABASE_URL.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { generateDataset } from "../../lib/generate/dataset";
import { startFakeLlm, type FakeLlmServer } from "../helpers/fake-llm-server";
import { STORE_KINDS } from "../helpers/stores";
import { storedStepCount } from "../helpers/steps";

const ROOT = path.resolve(__dirname, "../..");
const KEY = "fake__killed";

function cli(url: string, args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; out: string }> } {
  const child = spawn(process.execPath, ["bin/stepwise.mjs", "run", ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, FAKE_KEY: "secret" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const done = new Promise<{ code: number | null; out: string }>((resolve) => child.on("exit", (code) => resolve({ code, out })));
  return { child, done };
}

async function count(store: Store): Promise<number> {
  const run = await store.prisma.run.findUnique({ where: { key: KEY } });
  return run ? store.prisma.generation.count({ where: { runId: run.id } }) : 0;
}

describe.each(STORE_KINDS)("killing `stepwise run` on $name", (kind) => {
  let store: Store;
  let url: string;
  let drop: () => Promise<void>;
  let server: FakeLlmServer;
  let dir: string;
  beforeAll(async () => {
    ({ store, url, drop } = await kind.create());
    server = await startFakeLlm({ p: 0.97, seed: 5, delayMs: 25, apiKey: "secret" });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-kill-"));
    fs.writeFileSync(
      path.join(dir, "ds.jsonl"),
      [...generateDataset({ benchmark: "procedural-arith", lengths: [5, 25, 45, 65], itemsPerLength: 50, seed: 9 })].join("\n") + "\n",
    );
  });
  afterAll(async () => {
    await server?.close();
    await drop?.();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("SIGKILL after some generations, then resume: 200 stored, none twice", async () => {
    const args = [
      "--dataset",
      path.join(dir, "ds.jsonl"),
      "--endpoint",
      server.url,
      "--model",
      "fake-llm",
      "--run-key",
      KEY,
      "--concurrency",
      "4",
      "--api-key-env",
      "FAKE_KEY",
    ];
    const first = cli(url, args);
    const deadline = Date.now() + 60_000;
    let stored = 0;
    while ((stored = await count(store)) < 30) {
      if (Date.now() > deadline)
        throw new Error(`child stored only ${stored}: ${(await Promise.race([first.done, Promise.resolve({ out: "(running)" })])).out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    first.child.kill("SIGKILL");
    const killed = await first.done;
    expect(killed.code).toBeNull(); // killed, not finished
    const atKill = await count(store);
    expect(atKill).toBeGreaterThanOrEqual(30);
    expect(atKill).toBeLessThan(200);
    expect((await store.prisma.run.findUniqueOrThrow({ where: { key: KEY } })).status).toBe("running");

    const second = cli(url, args);
    const r = await second.done;
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(new RegExp(`200/200 generations stored \\(\\d+ new, ${atKill} already stored\\)`));
    const run = await store.prisma.run.findUniqueOrThrow({ where: { key: KEY } });
    expect(run).toMatchObject({ status: "complete", itemCount: 200, generationCount: 200 });
    const gens = await store.prisma.generation.findMany({ where: { runId: run.id }, select: { itemKey: true, epoch: true } });
    expect(gens).toHaveLength(200);
    expect(new Set(gens.map((g) => `${g.itemKey}#${g.epoch}`)).size).toBe(200);
    const steps = await storedStepCount(store.prisma, run.id);
    expect(steps).toBe(50 * (5 + 25 + 45 + 65));
  });
});
