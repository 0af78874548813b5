import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { expect, test } from "@playwright/test";
import { openStore } from "../../lib/db";
import { EXAMPLES } from "../helpers/fixtures";
import { cli, SERVER_STORES, startServer, type ServerProcess, type TestStore } from "../helpers/server-process";
import { storedOutput } from "../../lib/store/output-text";

// `stepwise push` through a real `next start` with real tokens, on each store: native files,
// an importable file, a local run, idempotent re-pushes, the server's refusals (401, 403, 413,
// 422 with file:line: field), a retry after 429, a gzip bomb, and a push killed mid-stream that
// leaves the server's run old or new, never mixed. Servers on E2E_PORT + 4 and + 5.

const BASE_PORT = Number(process.env.E2E_PORT ?? 3100) + 4;
const root = path.resolve(".");
const MEASURING = path.join(root, "tests/fixtures/import/measuring/experiment_results.json");

// Asynchronous on purpose: while a push runs, this process's event loop must keep running, so that
// fetch's pool sees the server close an idle connection (keep-alive, 5 s) and retires it itself
// (at 4 s) — a synchronous child blocks both, and the next fetch then reuses a socket already closed.
function push(env: Record<string, string | undefined>, ...args: string[]) {
  const child = spawn(process.execPath, [path.join(root, "bin/stepwise.mjs"), "push", ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000,
  });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
  return new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, out, err }));
  });
}

test.describe.configure({ mode: "serial" });

SERVER_STORES.forEach((kind, i) => {
  test(`stepwise push through next start (${kind.name})`, async () => {
    test.setTimeout(240_000);
    let store: TestStore | undefined;
    let local: TestStore | undefined;
    let server: ServerProcess | undefined;
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-push-"));
    try {
      store = await kind.create();
      cli(store.url, "migrate");
      const token = cli(store.url, "token", "create", "--name", "laptop");
      const viewer = cli(store.url, "token", "create", "--name", "reader", "--role", "viewer");
      const hasty = cli(store.url, "token", "create", "--name", "hasty"); // spends its write budget below
      server = await startServer(BASE_PORT + i, {
        DATABASE_URL: store.url,
        STEPWISE_MAX_BODY_MB: "1",
        STEPWISE_WRITE_BURST: "10",
        STEPWISE_WRITE_RATE_PER_MIN: "6",
      });
      const env = { STEPWISE_TOKEN: token };
      const runs = async () =>
        (await (await fetch(`${server!.url}/api/v1/runs`)).json()) as {
          key: string;
          generations: number;
        }[];

      // a native file: loaded, its URL printed; the same file again replaces the runs whole
      const arith = path.join(EXAMPLES, "arith-small.jsonl");
      const first = await push(env, arith, "--server", server.url);
      expect(first.err).toBe("");
      expect(first.code).toBe(0);
      const arithKeys = fs
        .readFileSync(arith, "utf8")
        .split("\n")
        .filter((l) => l.includes('"type":"run"'))
        .map((l) => JSON.parse(l).key as string);
      for (const key of arithKeys) expect(first.out).toContain(`${server.url}/runs/${encodeURIComponent(key)}`);
      const once = (await runs()).filter((r) => arithKeys.includes(r.key));
      expect((await push(env, arith, "--server", server.url)).code).toBe(0);
      expect((await runs()).filter((r) => arithKeys.includes(r.key))).toEqual(once);

      // a file of another tool goes to the importer
      const imported = await push(env, MEASURING, "--server", server.url);
      expect(imported.err).toBe("");
      expect(imported.code).toBe(0);
      expect(imported.out).toMatch(/→ http:\/\/127\.0\.0\.1:\d+\/runs\//);

      // a run of a local store, exported on the fly
      local = await SERVER_STORES[0].create();
      cli(local.url, "ingest", path.join(EXAMPLES, "generic-small.jsonl"));
      const fromRun = await push(
        { ...env, DATABASE_URL: local.url },
        "--run",
        "sim-delta-2b__list-procedures-demo__2026-06-01",
        "--server",
        server.url,
      );
      expect(fromRun.code).toBe(0);
      expect((await runs()).find((r) => r.key === "sim-delta-2b__list-procedures-demo__2026-06-01")?.generations).toBe(10);

      // the server's refusals, as the server words them
      const before = await runs();
      const noToken = await push({ STEPWISE_TOKEN: "" }, arith, "--server", server.url);
      expect(noToken.code).toBe(2);
      expect(noToken.err).toMatch(/set STEPWISE_TOKEN/);
      const bad = await push({ STEPWISE_TOKEN: "sw_not_a_token" }, arith, "--server", server.url);
      expect(bad.code).toBe(1);
      expect(bad.err).toMatch(/answered 401: .*needs a valid API token/);
      const other = await push({ MY_TOKEN: viewer }, arith, "--server", server.url, "--token-env", "MY_TOKEN");
      expect(other.code).toBe(1);
      expect(other.err).toMatch(/answered 403: .*needs the editor or admin role/);
      const invalid = await push(env, path.join(EXAMPLES, "invalid.jsonl"), "--server", server.url);
      expect(invalid.code).toBe(1);
      expect(invalid.err).toMatch(/answered 422: .*nothing was loaded/);
      expect(invalid.err).toMatch(/:4: input\.steps\[1\]\.op: /);
      // over 1 MB once decompressed (well under it on the wire): 413 with the limit
      const big = path.join(tmp, "big.jsonl");
      const lines = fs.readFileSync(path.join(EXAMPLES, "generic-small.jsonl"), "utf8").trim().split("\n");
      const items = lines.slice(1);
      const bigLines = [lines[0]];
      for (let n = 0; bigLines.join("\n").length < 1.5 * 1024 * 1024; n++)
        bigLines.push(...items.map((l) => l.replace(/"id":"([^"]+)"/, `"id":"$1-${n}"`)));
      fs.writeFileSync(big, bigLines.join("\n") + "\n");
      const tooBig = await push(env, big, "--server", server.url);
      expect(tooBig.code).toBe(1);
      expect(tooBig.err).toMatch(/answered 413: the request body is over the limit of 1 MB/);
      // a gzip bomb: 64 MB of zeros in ~64 kB
      const bomb = await fetch(`${server.url}/api/v1/runs`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-encoding": "gzip" },
        body: zlib.gzipSync(Buffer.alloc(64 << 20)),
      });
      expect(bomb.status).toBe(413);
      expect(await runs()).toEqual(before);

      // a token whose write budget (10, then 6 a minute) is spent gets 429, waits Retry-After and succeeds
      const generic = path.join(EXAMPLES, "generic-small.jsonl");
      for (let n = 0; n < 11; n++)
        await fetch(`${server.url}/api/v1/runs`, { method: "POST", headers: { authorization: `Bearer ${hasty}` }, body: "" });
      const retried = await push({ STEPWISE_TOKEN: hasty }, generic, "--server", server.url);
      expect(retried.err).toMatch(/server answered 429 \(too many write requests.*\); retrying in \d+ s/);
      expect(retried.code).toBe(0);

      // killed mid-stream: the server's run stays the old one, whole
      const key = "sim-delta-2b__list-procedures-demo__2026-06-01";
      const newer = lines.map((l, n) => (n === 0 ? l : JSON.stringify({ ...JSON.parse(l), output: `new version ${n}` })));
      const child = spawn(process.execPath, [path.join(root, "bin/stepwise.mjs"), "push", "-", "--server", server.url], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ["pipe", "pipe", "pipe"],
      });
      child.stdin.write(newer.slice(0, 6).join("\n") + "\n");
      await new Promise((r) => setTimeout(r, 2500));
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
      const outputs = async () => {
        const s = await openStore(store!.url);
        try {
          const gens = await s.prisma.generation.findMany({ where: { run: { key } }, select: { output: true, outputDeflated: true } });
          return gens.map((g) => storedOutput(g.output, g.outputDeflated)).sort();
        } finally {
          await s.close();
        }
      };
      const oldOutputs = items.map((l) => (JSON.parse(l).output as string | undefined) ?? "").sort(); // no output is stored as ""
      const newOutputs = newer
        .slice(1)
        .map((l) => JSON.parse(l).output as string)
        .sort();
      await new Promise((r) => setTimeout(r, 3000)); // the server has seen the connection end
      expect(await outputs()).toEqual(oldOutputs);
      // and a complete push of the new version replaces it whole (the server is not left locked)
      fs.writeFileSync(path.join(tmp, "newer.jsonl"), newer.join("\n") + "\n");
      const whole = await push(env, path.join(tmp, "newer.jsonl"), "--server", server.url);
      expect(whole.code).toBe(0);
      expect(await outputs()).toEqual(newOutputs);
      // every push streams compressed, so each loaded on the analysis thread the server bundles
      expect(server.output()).not.toContain("on one thread");
    } catch (e) {
      console.error(server?.output().slice(-4000));
      throw e;
    } finally {
      await server?.kill9();
      await store?.drop();
      await local?.drop();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
