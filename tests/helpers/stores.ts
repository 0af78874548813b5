import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { RunMetricsJson } from "../../lib/analysis/types";
import { RunAccess } from "../../lib/auth/run-access";
import { openStore, type Store } from "../../lib/db";
import { localAdminContext, type ReadContext } from "../../lib/read-context";
import { getRunMetrics, listRuns, type RunListEntry } from "../../lib/store/read";

// Store tests run once per provider: SQLite always, PostgreSQL when STEPWISE_TEST_PG names a
// server (scripts/test.sh sets it when one answers on 127.0.0.1:5432; CI always has one).
export interface StoreKind {
  name: "sqlite" | "postgres";
  /** A fresh, empty, migrated store and a function that drops it. */
  create(): Promise<{ store: Store; url: string; drop(): Promise<void> }>;
}

const sqlite: StoreKind = {
  name: "sqlite",
  async create() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-test-"));
    const url = "file:" + path.join(dir, "store.db");
    const store = await openStore(url);
    return {
      store,
      url,
      async drop() {
        await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = "/" + database;
  return u.toString();
}

const postgres = (adminUrl: string): StoreKind => ({
  name: "postgres",
  async create() {
    const database = `stepwise_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
    await admin.end();
    const url = withDatabase(adminUrl, database);
    const store = await openStore(url);
    return {
      store,
      url,
      async drop() {
        await store.close();
        const a = new pg.Client({ connectionString: adminUrl });
        await a.connect();
        await a.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
        await a.end();
      },
    };
  },
});

export const STORE_KINDS: StoreKind[] = [sqlite, ...(process.env.STEPWISE_TEST_PG ? [postgres(process.env.STEPWISE_TEST_PG)] : [])];

/** A read context that may read everything in `store` (what the CLI uses). */
export function adminContext(store: Store): ReadContext {
  return localAdminContext(store);
}

/** The access proof of a run `ctx` may read; throws when the check refuses it. */
export async function runAccess(ctx: ReadContext, key: string): Promise<RunAccess> {
  const r = await RunAccess.check(ctx, key);
  if (!r.ok) throw new Error(`run ${key}: refused (${r.refusal})`);
  return r.run;
}

/**
 * The access proof of a run as it reads while in `status` (a run being written counts its rows
 * instead of reading its aggregates): the status is set for the check, then put back.
 */
export async function runAccessWhile(store: Store, key: string, status: string): Promise<RunAccess> {
  const { status: was } = await store.prisma.run.findUniqueOrThrow({ where: { key }, select: { status: true } });
  await store.prisma.run.update({ where: { key }, data: { status } });
  try {
    return await runAccess(adminContext(store), key);
  } finally {
    await store.prisma.run.update({ where: { key }, data: { status: was } });
  }
}

/** A run's stored §6 metrics as the API and CLI read them, or null when there is no such run. */
export async function storedMetrics(store: Store, key: string): Promise<RunMetricsJson | null> {
  const ctx = adminContext(store);
  const r = await RunAccess.check(ctx, key);
  return r.ok ? getRunMetrics(ctx, r.run) : null;
}

/** The run list as the API and CLI read it. */
export function storedRuns(store: Store): Promise<RunListEntry[]> {
  return listRuns(adminContext(store));
}
