import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { env, providerOf, sqlitePath, type Provider } from "./env";
import { PrismaClient as PgClient } from "./generated/postgres/client";
import { PrismaClient } from "./generated/sqlite/client";
import { migrate } from "./store/migrate";
import { openRaw, openSqliteDatabase, type RawDb } from "./store/raw";

// The one place that picks the provider. Both generated clients come from the same data
// model (prisma/sqlite is the source, prisma/postgres its copy), so one type serves both.
export type Db = PrismaClient;

export interface Store {
  url: string;
  provider: Provider;
  prisma: Db;
  /** driver-level access for migrations and bulk loads (lib/store/raw.ts) */
  raw: RawDb;
  close(): Promise<void>;
}

/** Opens a store and migrates it to the current schema. */
export async function openStore(url: string = env.DATABASE_URL): Promise<Store> {
  const provider = providerOf(url);
  if (provider === "postgres") {
    const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
    pool.on("error", () => undefined); // an idle client dropped by the server: the pool replaces it
    const raw = openRaw(url, pool);
    await migrate(raw);
    const prisma = new PgClient({ adapter: new PrismaPg(pool) }) as unknown as Db;
    return {
      url,
      provider,
      prisma,
      raw,
      async close() {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }
  // Create the file with WAL set before Prisma's connection opens it.
  openSqliteDatabase(url).close();
  const raw = openRaw(url);
  await migrate(raw);
  const prisma = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: "file:" + sqlitePath(url), timeout: 30_000 }) });
  return {
    url,
    provider,
    prisma,
    raw,
    async close() {
      await prisma.$disconnect();
      await raw.close();
    },
  };
}

const globalStore = globalThis as unknown as { __stepwiseStore?: Promise<Store> };

/** The process-wide store for DATABASE_URL (cached across Next.js hot reloads). */
export function getStore(): Promise<Store> {
  if (!globalStore.__stepwiseStore) {
    globalStore.__stepwiseStore = openStore().catch((e) => {
      globalStore.__stepwiseStore = undefined; // let the next request retry (database back up)
      throw e;
    });
  }
  return globalStore.__stepwiseStore;
}

/** Prisma client of the process-wide store. */
export async function db(): Promise<Db> {
  return (await getStore()).prisma;
}
