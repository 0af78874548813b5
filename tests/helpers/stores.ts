import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openStore, type Store } from "../../lib/db";

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

/**
 * Points the query layer at `store`: lib/queries reads the process-wide store that lib/db.ts
 * caches on globalThis. Returns the function that lets go of it again.
 */
export function serveQueriesFrom(store: Store): () => void {
  const cache = globalThis as unknown as { __stepwiseStore?: Promise<Store>; __stepwiseStoreFile?: string | null };
  cache.__stepwiseStore = Promise.resolve(store);
  cache.__stepwiseStoreFile = undefined;
  return () => {
    cache.__stepwiseStore = undefined;
  };
}
