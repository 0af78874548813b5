import { createHash } from "node:crypto";
import pg from "pg";
import { BinaryRows, binaryTypes, copyEncoded, copyRows, copyValues } from "./pg-copy";
import type { RawDb, RawTx } from "./raw";
import type { ReadOptions, StoreReader } from "./reader";
import type { Sql } from "./sql";

// Everything that needs node-postgres at run time, imported only when a store is PostgreSQL:
// loading `pg` costs a SQLite command ~60 ms of its start (docs/performance.md, "Load").

/** Settings of every PostgreSQL connection the app opens (scripts/bench/explain.ts plans with them too). */
export const PG_SESSION_OPTIONS = "-c parallel_setup_cost=20000";

/** The pool a store's reads, writes and Prisma share. */
export function openPgPool(url: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 10_000,
    // PostgreSQL planned parallel scans for small LIMIT queries (the compare page's) whose
    // time then went to starting the workers. A higher setup cost keeps workers for the scans
    // that pay for them, such as the compare table's once-per-pair aggregate (figures:
    // docs/decisions.md, "Figures behind code comments").
    options: PG_SESSION_OPTIONS,
  });
  pool.on("error", () => undefined); // an idle client dropped by the server: the pool replaces it
  return pool;
}

function pgValue(v: unknown) {
  return v === undefined ? null : v;
}

/** lib/store/raw.ts's RawDb on PostgreSQL: through `sharedPool` (its owner ends it), else a pool of its own. */
export function openPgRaw(url: string, sharedPool?: pg.Pool): RawDb {
  const pool = sharedPool ?? new pg.Pool({ connectionString: url, max: 4 });
  return {
    provider: "postgres",
    async outsideTransaction(sql) {
      await pool.query(sql);
    },
    async transaction<T>(fn: (tx: RawTx) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      const tx: RawTx = {
        provider: "postgres",
        async exec(sql, params = []) {
          return (await client.query(sql, params.map(pgValue))).rowCount ?? 0;
        },
        async query<T>(sql: string, params: unknown[] = []) {
          return (await client.query(sql, params.map(pgValue))).rows as T[];
        },
        async script(sql) {
          await client.query(sql);
        },
        async insertRows(table, columns, rows) {
          await copyRows(client, table, columns, rows);
        },
        async insertValues(table, columns, chunks) {
          await copyValues(client, table, columns, chunks);
        },
        async encoderOf(table, columns) {
          const types = await binaryTypes(client, table, columns);
          return types && new BinaryRows(types, columns);
        },
        async insertEncoded(table, rows) {
          await copyEncoded(client, table, rows);
        },
        async reserveIds(table, n) {
          const seq = `"${table}_id_seq"`;
          // Values are consecutive unless another session draws from the sequence at the
          // same moment; then draw again (skipped ids are harmless).
          for (;;) {
            const r = await client.query(`SELECT nextval('${seq}') AS id FROM generate_series(1, $1)`, [n]);
            const ids = r.rows.map((x: { id: string }) => Number(x.id));
            if (ids.every((id, i) => id === ids[0] + i)) return ids[0];
          }
        },
      };
      try {
        await client.query("BEGIN");
        const out = await fn(tx);
        await client.query("COMMIT");
        return out;
      } catch (e) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    async settled() {
      return null;
    },
    async close() {
      if (!sharedPool) await pool.end();
    },
  };
}

// PostgreSQL's BIGINT (COUNT, SUM) and NUMERIC as numbers, not text (every count here is far
// below 2^53), and `timestamp` (without time zone, as Prisma declares DateTime) as UTC, as
// Prisma writes it, where node-postgres would take the server's local time.
const INT8 = 20;
const NUMERIC = 1700;
const TIMESTAMP = 1114;
const pgTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    if (oid === TIMESTAMP) return (v: string) => new Date(v.replace(" ", "T") + "Z");
    return pg.types.getTypeParser(oid, format ?? "text");
  },
} as pg.CustomTypesConfig;

/** lib/store/reader.ts's StoreReader on PostgreSQL. */
export function pgReader(pool: pg.Pool): StoreReader {
  // A planned-once query's statement is named by its text's hash: node-postgres refuses one name for two texts.
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name) names.set(text, (name = "read_" + createHash("sha256").update(text).digest("hex").slice(0, 24)));
    return name;
  };
  return {
    async read<T>(query: Sql, options?: ReadOptions) {
      const name = options?.planOnce ? nameOf(query.text) : undefined;
      return (await pool.query({ name, text: query.text, values: query.values as unknown[], types: pgTypes })).rows as T[];
    },
    async close() {},
  };
}
