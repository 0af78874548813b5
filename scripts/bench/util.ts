import { execFileSync } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { bundled } from "../../bin/bundle.mjs";

/** Runs node with `args` in a child process and returns its last stdout line as JSON. */
function lastJsonLine<T>(args: string[], env: Record<string, string | undefined> = {}): T {
  const out = execFileSync(process.execPath, args, {
    encoding: "utf8",
    maxBuffer: 1 << 26,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  return JSON.parse(out.split("\n").pop()!) as T;
}

/** Runs a TypeScript script in a child process and returns its last stdout line as JSON. */
export function child<T = Record<string, number>>(args: string[], env: Record<string, string | undefined> = {}): T {
  return lastJsonLine<T>(["--import", "tsx", ...args], env);
}

/**
 * The same for a script that loads files: run from a bundle with the analysis thread's bundled
 * entry (bin/bundle.mjs), as `stepwise ingest` runs, so its time and memory are the CLI's.
 */
export async function loaderChild<T = Record<string, number>>(script: string, args: string[]): Promise<T> {
  const dir = await bundled(`bench-${path.basename(script, ".ts")}`, { main: script, "analysis-thread": "lib/store/analysis-thread.ts" });
  return lastJsonLine<T>([path.join(dir, "main.mjs"), ...args]);
}

/** The parse floor in a fresh process of its own, as each load runs (scripts/bench/parse-floor-worker.ts). */
export const freshParseFloor = (file: string) => loaderChild<{ seconds: number }>("scripts/bench/parse-floor-worker.ts", [file]);

export const fmt = (n: number) => Math.round(n).toLocaleString("en");

/** A fresh PostgreSQL database next to `adminUrl`; returns its URL and a drop function. */
export async function freshPgDatabase(adminUrl: string, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = "/" + name;
  return {
    url: u.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await a.end();
    },
  };
}

export async function pgReachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/** Planner statistics for a freshly loaded PostgreSQL store. */
export async function analyze(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query("ANALYZE");
  await c.end();
}
