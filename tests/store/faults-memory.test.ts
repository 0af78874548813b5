// Memory stays flat in the file size: `stepwise ingest -` with a 96 MB V8 heap loads a
// ~150 MB stream (7,500 generic generations with 20 kB outputs) written to its stdin. A loader
// that held the file, the outputs or the rows of a whole run would die with an out-of-memory
// error; a streaming one keeps ~100 bytes per generation until the run's metrics.
import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../lib/db";
import { ROOT, runSnapshot } from "../helpers/faults";

const N = 7_500;
const OUTPUT = 20_000; // characters of model text per generation

describe("memory while loading a stream much larger than the heap (SQLite)", () => {
  let dir: string;
  beforeAll(() => void (dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-faults-memory-"))));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it(`${N} generations, ${Math.round((N * OUTPUT) / 1e6)} MB of text, 96 MB heap`, { timeout: 240_000 }, async () => {
    const url = "file:" + path.join(dir, "store.db");
    const child = spawn(process.execPath, ["--max-old-space-size=96", "bin/stepwise.mjs", "ingest", "-"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const exited = once(child, "exit");
    const filler = "S1 = 1 and then some text. ".repeat(Math.ceil(OUTPUT / 27)).slice(0, OUTPUT);
    const write = async (line: string) => {
      if (!child.stdin.write(line + "\n")) await once(child.stdin, "drain");
    };
    let bytes = 0;
    const run = JSON.stringify({ type: "run", key: "faults__memory", model: "mem-model", benchmark: "generic", variant: "mem" });
    await write(run);
    for (let i = 0; i < N; i++) {
      const ref = [i % 7, (i * 3) % 11, i % 5];
      const line = JSON.stringify({
        type: "item",
        id: `m-${i}`,
        reference: ref,
        steps: i % 4 ? ref : [ref[0], null, 9],
        answer: ref[2],
        output: `${i} ${filler}`,
      });
      bytes += line.length + 1;
      await write(line);
    }
    child.stdin.end();
    const [code] = await exited;
    expect(code, out).toBe(0);
    expect(bytes).toBeGreaterThan(140e6);
    const store = await openStore(url);
    try {
      const s = await runSnapshot(store, "faults__memory");
      expect([s.items, s.generations, s.steps]).toEqual([N, N, 3 * N]);
    } finally {
      await store.close();
    }
  });
});
