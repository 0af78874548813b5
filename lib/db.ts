import fs from "node:fs";
import type pg from "pg";
import { env, providerOf, sqlitePath, type Provider } from "./env";
import type { PrismaClient } from "./generated/sqlite/client";
import { migrate } from "./store/migrate";
import { registerOutputFunction } from "./store/output-text";
import { openRaw, openSqliteDatabase, type RawDb } from "./store/raw";
import { sqliteReader, type ReadOptions, type StoreReader } from "./store/reader";
import type { Sql } from "./store/sql";

// The one place that picks the provider. Both generated clients come from the same data
// model (prisma/sqlite is the source, prisma/postgres its copy), so one type serves both.
export type Db = PrismaClient;

/**
 * A store as loads, imports and migrations use it: the driver only. Prisma's client and the
 * PostgreSQL driver are each loaded only where used (~0.2 s of a command's start together;
 * docs/performance.md, "Load").
 */
export interface RawStore {
  url: string;
  provider: Provider;
  /** driver-level access for migrations and bulk loads (lib/store/raw.ts) */
  raw: RawDb;
  close(): Promise<void>;
  /** the server's store (getStore): its loads give the event loop turns, as it answers requests too */
  sharesEventLoop?: boolean;
}

export interface Store extends RawStore {
  prisma: Db;
  /** the views' reads, written as SQL, through the driver (lib/store/reader.ts) */
  read<T = Record<string, unknown>>(query: Sql, options?: ReadOptions): Promise<T[]>;
}

/** Opens a store and migrates it to the current schema, without Prisma's client. */
export function openRawStore(url: string = env.DATABASE_URL): Promise<RawStore> {
  return openMigrated(url);
}

/** The driver's store, migrated; on PostgreSQL with the pool it runs on (its close ends the pool). */
async function openMigrated(url: string): Promise<RawStore & { pool: pg.Pool | null }> {
  const provider = providerOf(url);
  if (provider === "postgres") {
    const { openPgPool, openPgRaw } = await import("./store/postgres");
    const pool = openPgPool(url);
    const raw = openPgRaw(url, pool);
    await migrate(raw);
    return { url, provider, raw, pool, close: () => pool.end() };
  }
  // Create the file with WAL set before Prisma's connection opens it.
  openSqliteDatabase(url).close();
  const raw = await openRaw(url);
  await migrate(raw);
  return { url, provider, raw, pool: null, close: () => raw.close() };
}

/** Opens a store and migrates it to the current schema. */
export async function openStore(url: string = env.DATABASE_URL): Promise<Store> {
  const { pool, ...store } = await openMigrated(url);
  if (pool) {
    // each provider's client loads only when used (~5 MB of code apiece)
    const [{ PrismaPg }, { PrismaClient: PgClient }, { pgReader }] = await Promise.all([
      import("@prisma/adapter-pg"),
      import("./generated/postgres/client"),
      import("./store/postgres"),
    ]);
    const prisma = new PgClient({ adapter: new PrismaPg(pool) }) as unknown as Db;
    const reader = pgReader(pool);
    return {
      ...store,
      prisma,
      read: (query, options) => reader.read(query, options),
      async close() {
        await prisma.$disconnect();
        await store.close();
      },
    };
  }
  const [{ PrismaBetterSQLite3 }, { PrismaClient }] = await Promise.all([
    import("@prisma/adapter-better-sqlite3"),
    import("./generated/sqlite/client"),
  ]);
  // Prisma's SQLite adapter with stepwise_output() registered on its connection (the search's
  // re-check reads the deflated outputs through it; lib/store/output-text.ts). The adapter
  // keeps its better-sqlite3 handle in a public `client` field.
  class SqliteAdapterFactory extends PrismaBetterSQLite3 {
    override async connect() {
      const adapter = await super.connect();
      registerOutputFunction((adapter as unknown as { client: Parameters<typeof registerOutputFunction>[0] }).client);
      return adapter;
    }
  }
  const prisma = new PrismaClient({ adapter: new SqliteAdapterFactory({ url: "file:" + sqlitePath(url), timeout: 30_000 }) });
  // opened on the first read: the command line's loads never read through it
  let reader: StoreReader | undefined;
  return {
    ...store,
    prisma,
    read: (query) => (reader ??= sqliteReader(url)).read(query),
    async close() {
      await prisma.$disconnect();
      await store.close();
      await reader?.close();
    },
  };
}

const globalStore = globalThis as unknown as {
  __stepwiseStore?: Promise<Store>;
  /** "dev:ino" of the SQLite file the cached store opened; null when not a file */
  __stepwiseStoreFile?: string | null;
  /** SQLite paths this process has opened: one that vanishes is an outage, not a new store */
  __stepwiseStoreSeen?: Set<string>;
};

/** Identity of a SQLite store's file ("dev:ino"), null when it is missing; undefined for PostgreSQL. */
function sqliteFileId(url: string): string | null | undefined {
  if (providerOf(url) !== "sqlite" || sqlitePath(url) === ":memory:") return undefined;
  try {
    const st = fs.statSync(sqlitePath(url));
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
}

/** The store cannot be reached: a client may retry (503). Everything else a read throws is a bug. */
export class StoreUnavailable extends Error {}

// Driver and Prisma signs of a store that is down or unreachable (rather than a bad query):
// node socket errors; PostgreSQL SQLSTATE class 08 (connection), 57P01-57P03 (shutting down,
// cannot connect now), 3D000 (database does not exist), 53300 (too many connections); Prisma's
// P1001 (unreachable), P1002 (timed out), P1003 (no such database), P1017 (closed), P2024 (pool
// timeout); SQLite's CANTOPEN, BUSY and locked (a writer holds it past the timeout).
const DOWN_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "57P01",
  "57P02",
  "57P03",
  "3D000",
  "53300",
  "P1001",
  "P1002",
  "P1003",
  "P1017",
  "P2024",
  "SQLITE_CANTOPEN",
  "SQLITE_BUSY",
  "SQLITE_LOCKED",
]);
const DOWN_KINDS = new Set([
  "DatabaseNotReachable",
  "DatabaseDoesNotExist",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "DatabaseAccessDenied",
]);
const DOWN_TEXT =
  /Connection terminated|connection (?:is )?closed|Can't reach database server|database ".*" does not exist|the database system is (?:starting up|shutting down)|timeout exceeded when trying to connect|Client has encountered a connection error|database is locked/i;

/** `e` as StoreUnavailable when it says the store is unreachable, else null (a bug: 500). */
export function asStoreUnavailable(e: unknown): StoreUnavailable | null {
  if (e instanceof StoreUnavailable) return e;
  for (let x: unknown = e, depth = 0; x && typeof x === "object" && depth < 5; x = (x as { cause?: unknown }).cause, depth++) {
    const o = x as { code?: unknown; kind?: unknown; originalCode?: unknown; message?: unknown };
    for (const c of [o.code, o.originalCode]) if (typeof c === "string" && (DOWN_CODES.has(c) || c.startsWith("08"))) return wrap(e);
    if (typeof o.kind === "string" && DOWN_KINDS.has(o.kind)) return wrap(e);
    if (typeof o.message === "string" && DOWN_TEXT.test(o.message)) return wrap(e);
  }
  return null;
}

function wrap(e: unknown): StoreUnavailable {
  return new StoreUnavailable(e instanceof Error ? e.message : String(e), { cause: e });
}

/**
 * The process-wide store for DATABASE_URL (cached across Next.js hot reloads). A failed open
 * is not cached, so the next request retries (database back up). For SQLite, an open handle
 * keeps reading and writing a file that was moved, deleted or replaced (restored from a
 * backup) behind it: silently stale, and writes lost. So every call checks that the path
 * still holds the file that was opened; if not, the handle is dropped (not closed: closing
 * the last handle of a replaced file would delete the new file's -wal) and the store reopens,
 * or answers "unavailable" while the file is gone (tests/store/faults-outage.test.ts).
 */
export function getStore(): Promise<Store> {
  const url = env.DATABASE_URL;
  const seen = (globalStore.__stepwiseStoreSeen ??= new Set());
  const id = sqliteFileId(url);
  if (globalStore.__stepwiseStore && globalStore.__stepwiseStoreFile !== undefined && id !== globalStore.__stepwiseStoreFile) {
    globalStore.__stepwiseStore = undefined;
  }
  if (!globalStore.__stepwiseStore) {
    if (id === null && seen.has(url)) {
      return Promise.reject(new StoreUnavailable(`the SQLite store ${sqlitePath(url)} has gone away (moved or deleted); restore it`));
    }
    globalStore.__stepwiseStore = openStore(url).then(
      (store) => {
        globalStore.__stepwiseStoreFile = sqliteFileId(url);
        if (globalStore.__stepwiseStoreFile !== undefined) seen.add(url);
        store.sharesEventLoop = true;
        return store;
      },
      (e) => {
        globalStore.__stepwiseStore = undefined; // let the next request retry (database back up)
        // Failing to open (or migrate) the store is an outage to the request that asked.
        throw e instanceof StoreUnavailable ? e : new StoreUnavailable(e instanceof Error ? e.message : String(e), { cause: e });
      },
    );
    globalStore.__stepwiseStoreFile = undefined; // not checked until the open has finished
  }
  return globalStore.__stepwiseStore;
}
