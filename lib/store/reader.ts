import type Database from "better-sqlite3";
import type { Sql } from "./sql";
import { openSqliteDatabase } from "./raw";

// The views' reads, straight to the driver. Prisma 6.19's client engine compiles every query,
// raw ones included, in WebAssembly on the request's thread, and its SQLite adapter prepares
// every statement anew: ~30% of a page's server CPU (docs/performance.md, "Pages"). Reads
// written as SQL (lib/store/sql.ts) go through here instead; Prisma keeps the writes.
// Rows come as the driver gives them (SQLite: booleans as 0/1): readers convert each column
// (lib/queries/sql-values.ts). PostgreSQL's reader is in lib/store/postgres.ts.

export interface StoreReader {
  read<T = Record<string, unknown>>(query: Sql, options?: ReadOptions): Promise<T[]>;
  close(): Promise<void>;
}

export interface ReadOptions {
  /**
   * A query whose best plan does not depend on its values (equalities on an index's leading
   * columns, then at most a seek along it in its own order): PostgreSQL keeps one plan of it per
   * connection, a named prepared statement, instead of planning it at every request (the
   * generation page's join of six tables: 0.6 → 0.08 ms of the server's CPU; docs/performance.md,
   * "Pages and API"). Not for key lists, LIMIT or OFFSET values, or a search's text, whose
   * plans do. SQLite's statements are kept prepared anyway.
   */
  planOnce?: boolean;
}

// Prepared statements kept per SQL text; texts vary with the length of IN lists, so the cache
// is emptied when full rather than allowed to grow with them.
const STATEMENTS_KEPT = 512;

function sqliteValue(v: unknown): unknown {
  if (v === true) return 1;
  if (v === false) return 0;
  if (v === undefined) return null;
  // Prisma writes DateTime in a format of its own choosing: a read that binds one would compare
  // against the wrong representation, so none may.
  if (v instanceof Date) throw new Error("store reads bind timestamps as numbers or text, not Date");
  return v;
}

/**
 * A connection of its own, not the loader's (lib/store/raw.ts): a load holds that one inside
 * its transaction, and a read there would see a half-loaded run. `query_only` refuses writes.
 */
export function sqliteReader(url: string): StoreReader {
  const db: Database.Database = openSqliteDatabase(url);
  db.pragma("query_only = ON");
  const statements = new Map<string, Database.Statement>();
  return {
    async read<T>(query: Sql) {
      let stmt = statements.get(query.sql);
      if (!stmt) {
        if (statements.size >= STATEMENTS_KEPT) statements.clear();
        statements.set(query.sql, (stmt = db.prepare(query.sql)));
      }
      return stmt.all(...query.values.map(sqliteValue)) as T[];
    },
    async close() {
      db.close();
    },
  };
}
