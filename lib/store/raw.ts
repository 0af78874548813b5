import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import { providerOf, sqlitePath, type Provider } from "../env";
import { registerOutputFunction } from "./output-text";
import { registerPostingsFunction } from "./search-postings";
import { registerSearchTermsFunction } from "./search-terms";
import type { BinaryRows } from "./pg-copy";
import { checkpointOffThread, type CheckpointResult } from "./checkpoint-thread";
import { flushWalWhileWriting } from "./wal-flush";

// The driver-level path used for migrations and bulk loads: Prisma's per-row createMany is
// several times slower than prepared statements (SQLite) or multi-row VALUES (PostgreSQL),
// and a load must hold one transaction across a streamed file. Queries go through Prisma.
// PostgreSQL's side is lib/store/postgres.ts, loaded only for a PostgreSQL store.
// SQL is written with $1.. placeholders; the SQLite side rewrites them to ?NNN.

export interface RawTx {
  readonly provider: Provider;
  exec(sql: string, params?: unknown[]): Promise<number>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  script(sql: string): Promise<void>;
  /** Inserts rows (arrays in `columns` order) into `table` as fast as the driver allows. */
  insertRows(table: string, columns: string[], rows: unknown[][]): Promise<void>;
  /** The same for rows given as row-major chunks of values (no per-row arrays to build). */
  insertValues(table: string, columns: string[], chunks: unknown[][]): Promise<void>;
  /** Reserves `n` consecutive ids of `table`.id for rows this transaction will insert. */
  reserveIds(table: string, n: number): Promise<number>;
  /**
   * PostgreSQL: an encoder of `table`'s rows in COPY's binary format, to fill as rows come and
   * give to insertEncoded; null on SQLite, or where a column is of a type it does not write.
   */
  encoderOf(table: string, columns: string[]): Promise<BinaryRows | null>;
  /** Inserts the rows of an encoder from encoderOf (which it ends). */
  insertEncoded(table: string, rows: BinaryRows): Promise<void>;
}

export interface TransactionOptions {
  /** a load's: on SQLite its COMMIT leaves the checkpoint to a thread of its own (lib/store/checkpoint-thread.ts) */
  bulk?: boolean;
}

export interface RawDb {
  provider: Provider;
  transaction<T>(fn: (tx: RawTx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** A statement that must run outside any transaction (PostgreSQL's VACUUM). */
  outsideTransaction(sql: string): Promise<void>;
  /** Waits for what runs after commits (SQLite's checkpoints off the thread): the last one's result, or null for none. */
  settled(): Promise<CheckpointResult | null>;
  /** Closes the store once it is settled. */
  close(): Promise<void>;
}

/** The store at `url`; on PostgreSQL through `pool` when given (its owner ends it), else a pool of its own. */
export async function openRaw(url: string, pool?: pg.Pool): Promise<RawDb> {
  if (providerOf(url) !== "postgres") return openSqlite(url);
  const { openPgRaw } = await import("./postgres");
  return openPgRaw(url, pool);
}

const placeholder = /\$(\d+)/g;
/** Rewrites $n placeholders to positional ? and returns which parameter each one takes. */
function toSqlite(sql: string): { sql: string; order: number[] } {
  const order: number[] = [];
  const out = sql.replace(placeholder, (_, n: string) => {
    order.push(Number(n) - 1);
    return "?";
  });
  return { sql: out, order };
}
const ROWS_PER_STATEMENT = 64;
const MAX_SQLITE_PARAMS = 32_000;
const sqliteValue = (v: unknown) => (typeof v === "boolean" ? (v ? 1 : 0) : v === undefined ? null : v);

const BUSY_MS = 30_000;
/** Page size of a new SQLite store (and of one `stepwise compact` rewrote). */
export const PAGE_SIZE = 16_384;

export function openSqliteDatabase(url: string): Database.Database {
  const file = sqlitePath(url);
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file, { timeout: BUSY_MS });
  // A new store's pages: a Generation row is ~2 kB, of which a 4 kB page holds one and a
  // half; 16 kB pages pack them ~20% tighter (docs/performance.md, "Store size"). Only
  // before the first write: an existing store keeps its page size.
  if (db.pragma("page_count", { simple: true }) === 0) db.pragma(`page_size = ${PAGE_SIZE}`);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  registerOutputFunction(db);
  registerSearchTermsFunction(db);
  registerPostingsFunction(db);
  return db;
}

/**
 * Takes SQLite's write lock without blocking the event loop: better-sqlite3 waits for a busy
 * lock synchronously (up to the 30 s busy timeout), which would freeze a server, or deadlock a
 * process whose own other handle holds the lock. So try with a short timeout and retry on
 * timers until the same 30 s deadline (tests/store/faults-concurrent.test.ts).
 */
async function beginImmediate(db: Database.Database): Promise<void> {
  const deadline = Date.now() + BUSY_MS;
  db.pragma("busy_timeout = 10");
  try {
    for (;;) {
      try {
        db.exec("BEGIN IMMEDIATE");
        return;
      } catch (e) {
        if ((e as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  } finally {
    db.pragma(`busy_timeout = ${BUSY_MS}`);
  }
}

function openSqlite(url: string): RawDb {
  const db = openSqliteDatabase(url);
  const statements = new Map<string, { stmt: Database.Statement; order: number[] }>();
  const prepared = (sql: string) => {
    let s = statements.get(sql);
    if (!s) {
      const t = toSqlite(sql);
      statements.set(sql, (s = { stmt: db.prepare(t.sql), order: t.order }));
    }
    const { stmt, order } = s;
    return {
      run: (params: unknown[]) => stmt.run(...order.map((i) => sqliteValue(params[i]))),
      all: (params: unknown[]) => stmt.all(...order.map((i) => sqliteValue(params[i]))),
    };
  };
  const inserts = new Map<string, Database.Statement>();
  const insertStatement = (table: string, columns: string[], n: number) => {
    const key = `${table}\u0000${n}\u0000${columns.join()}`;
    const cached = inserts.get(key);
    if (cached) return cached;
    const tuple = `(${columns.map(() => "?").join(", ")})`;
    const sql = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES ${Array(n).fill(tuple).join(", ")}`;
    const stmt = db.prepare(sql);
    inserts.set(key, stmt);
    return stmt;
  };
  /**
   * Multi-row statements: one call into SQLite per ROWS_PER_STATEMENT rows. `chunks` are
   * row-major values; a row array is a chunk of one row.
   */
  const insertChunks = (table: string, columns: string[], chunks: unknown[][]) => {
    const width = columns.length;
    const per = Math.max(1, Math.min(ROWS_PER_STATEMENT, Math.floor(MAX_SQLITE_PARAMS / width)));
    const params = new Array(per * width);
    let k = 0;
    for (const chunk of chunks) {
      if (chunk.length % width !== 0)
        throw new Error(`insert into ${table}: ${chunk.length} values is not a whole number of ${width}-column rows`);
      for (let i = 0; i < chunk.length; i++) {
        const v = chunk[i];
        params[k++] = v === true ? 1 : v === false ? 0 : v === undefined ? null : v;
        if (k === params.length) {
          insertStatement(table, columns, per).run(params);
          k = 0;
        }
      }
    }
    if (k > 0) insertStatement(table, columns, k / width).run(params.slice(0, k));
  };
  const tx: RawTx = {
    provider: "sqlite",
    async exec(sql, params = []) {
      return prepared(sql).run(params).changes;
    },
    async query<T>(sql: string, params: unknown[] = []) {
      return prepared(sql).all(params) as T[];
    },
    async script(sql) {
      db.exec(sql);
    },
    async insertRows(table, columns, rows) {
      insertChunks(table, columns, rows);
    },
    async insertValues(table, columns, chunks) {
      insertChunks(table, columns, chunks);
    },
    async encoderOf() {
      return null;
    },
    async insertEncoded() {
      throw new Error("internal: SQLite inserts rows, not COPY's encoding");
    },
    async reserveIds(table, n) {
      // Safe: the load holds SQLite's single write lock for its whole transaction.
      let next = nextId.get(table);
      if (next === undefined) {
        const row = db.prepare(`SELECT COALESCE(MAX(id), 0) AS m FROM "${table}"`).get() as { m: number };
        const seq = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = ?").get(table) as { seq: number } | undefined;
        next = Math.max(row.m, seq?.seq ?? 0) + 1;
      }
      nextId.set(table, next + n);
      return next;
    },
  };
  const nextId = new Map<string, number>();
  let busy: Promise<unknown> = Promise.resolve();
  let checkpoint: Promise<CheckpointResult | null> = Promise.resolve(null);
  const commitBulk = () => {
    db.pragma("wal_autocheckpoint = 0");
    try {
      db.exec("COMMIT");
    } finally {
      db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    }
    // Under SQLite's own threshold the next automatic checkpoint takes it, as it would have.
    if (walBytes(db) < AUTOCHECKPOINT_PAGES * (db.pragma("page_size", { simple: true }) as number)) return;
    const file = db.name;
    checkpoint = checkpoint.then(async () => {
      const result = await checkpointOffThread(file);
      // SQLite's next checkpoint takes what this one could not: a warning, not a failure
      if ("error" in result) console.error(`stepwise: the checkpoint after a load failed (${result.error}); SQLite's next one will do it`);
      return result;
    });
  };
  return {
    provider: "sqlite",
    async outsideTransaction(sql) {
      await busy;
      db.exec(sql);
    },
    transaction<T>(fn: (tx: RawTx) => Promise<T>, { bulk = false }: TransactionOptions = {}): Promise<T> {
      // One connection, one transaction at a time: queue callers.
      const run = async () => {
        nextId.clear();
        await beginImmediate(db);
        const stopFlushing = db.memory ? () => {} : flushWalWhileWriting(`${db.name}-wal`);
        try {
          const out = await fn(tx);
          if (bulk && !db.memory) commitBulk();
          else db.exec("COMMIT");
          return out;
        } catch (e) {
          if (db.inTransaction) db.exec("ROLLBACK");
          throw e;
        } finally {
          stopFlushing();
        }
      };
      const p = busy.then(run, run);
      busy = p.catch(() => undefined);
      return p;
    },
    settled: () => checkpoint,
    async close() {
      await checkpoint;
      db.close();
    },
  };
}

/** SQLite's default: a commit that leaves this many pages or more in the WAL checkpoints it. */
const AUTOCHECKPOINT_PAGES = 1000;

/** The WAL file's size: at least what the last transaction wrote (the file is reused, not shrunk). */
function walBytes(db: Database.Database): number {
  try {
    return fs.statSync(`${db.name}-wal`).size;
  } catch {
    return 0;
  }
}
