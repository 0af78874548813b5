import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

// Real `next start` processes for tests that stop and restart servers themselves (jobs that
// survive kill -9, push through a server). Each server is its own process group, so a kill
// reaches next's server and nothing else.

const root = fileURLToPath(new URL("../..", import.meta.url));

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** SIGKILL to the server's process group (no shutdown code runs), resolved once it has exited */
  kill9(): Promise<void>;
  stop(): Promise<void>;
  output(): string;
}

export async function startServer(port: number, env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: root,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const url = `http://127.0.0.1:${port}`;
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // already gone
    }
    await exited;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}):\n${out}`);
    try {
      const r = await fetch(`${url}/api/v1/jobs`, { signal: AbortSignal.timeout(5000) });
      if (r.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await signal("SIGKILL");
      throw new Error(`next start on ${port} did not answer within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, port, child, kill9: () => signal("SIGKILL"), stop: () => signal("SIGTERM"), output: () => out };
}

/** The CLI against a given store; returns stdout trimmed. */
export function cli(databaseUrl: string, ...args: string[]): string {
  return execFileSync(process.execPath, [path.join(root, "bin/stepwise.mjs"), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: "1" },
    encoding: "utf8",
  }).trim();
}

export interface TestStore {
  name: "sqlite" | "postgres";
  url: string;
  drop(): Promise<void>;
}

/** Empty stores for server tests: a SQLite file always, a PostgreSQL database when STEPWISE_TEST_PG is set. */
export const SERVER_STORES: { name: "sqlite" | "postgres"; create(): Promise<TestStore> }[] = [
  {
    name: "sqlite",
    async create() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-server-"));
      return {
        name: "sqlite",
        url: "file:" + path.join(dir, "store.db"),
        drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  ...(process.env.STEPWISE_TEST_PG
    ? [
        {
          name: "postgres" as const,
          async create(): Promise<TestStore> {
            const admin = process.env.STEPWISE_TEST_PG!;
            const database = `stepwise_server_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
            const run = async (sql: string) => {
              const c = new pg.Client({ connectionString: admin });
              await c.connect();
              await c.query(sql);
              await c.end();
            };
            await run(`CREATE DATABASE "${database}"`);
            const u = new URL(admin);
            u.pathname = "/" + database;
            return { name: "postgres", url: u.toString(), drop: () => run(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`) };
          },
        },
      ]
    : []),
];
