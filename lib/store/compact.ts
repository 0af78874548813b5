import Database from "better-sqlite3";
import fs from "node:fs";
import { PAGE_SIZE } from "./raw";
import type { RawDb } from "./raw";

// `stepwise compact`: gives an upgraded store the layout a new one has. A SQLite store made
// before 16 kB pages keeps 4 kB ones (the page size changes only by rewriting the file), and
// migrations that rewrite rows leave free pages inside the file; VACUUM rewrites it with
// both fixed. It needs the store to itself (no server or load running) and the store's size
// again in free disk while it runs. PostgreSQL: VACUUM FULL of the tables migrations rewrite.

export class StoreBusyError extends Error {}

/** Bytes of a SQLite store on disk (file and WAL). */
const sqliteBytes = (file: string) => [file, `${file}-wal`].reduce((t, f) => t + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);

export function compactSqlite(file: string): { before: number; after: number; pageSize: number } {
  const db = new Database(file, { fileMustExist: true, timeout: 5000 });
  try {
    db.pragma("wal_checkpoint(TRUNCATE)");
    const before = sqliteBytes(file);
    // A page size changes only outside WAL mode, which another connection prevents.
    let mode: unknown;
    try {
      mode = db.pragma("journal_mode = DELETE", { simple: true });
    } catch (e) {
      if ((e as { code?: string }).code !== "SQLITE_BUSY") throw e;
    }
    if (mode !== "delete") throw new StoreBusyError(`${file} is open in another process (a server or a load): stop it, then compact`);
    try {
      db.pragma(`page_size = ${PAGE_SIZE}`);
      db.exec("VACUUM");
    } finally {
      db.pragma("journal_mode = WAL");
    }
    return { before, after: sqliteBytes(file), pageSize: Number(db.pragma("page_size", { simple: true })) };
  } finally {
    db.close();
  }
}

export async function compactPostgres(raw: RawDb): Promise<void> {
  for (const table of ["Generation", "Item", "ItemContent"]) await raw.outsideTransaction(`VACUUM FULL ANALYZE "${table}"`);
}
