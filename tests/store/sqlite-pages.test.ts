import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteDatabase } from "../../lib/store/raw";

// A new SQLite store is made with 16 kB pages (a Generation row is ~2 kB: they pack tighter
// than in 4 kB pages); a store made before keeps the page size it has.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-pages-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const pageSize = (db: Database.Database) => db.pragma("page_size", { simple: true });

describe("SQLite page size", () => {
  it("is 16 kB for a new store, in WAL mode", () => {
    const db = openSqliteDatabase("file:" + path.join(dir, "new.db"));
    db.exec("CREATE TABLE t (x)");
    expect(pageSize(db)).toBe(16_384);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("stays what it was for a store made with other pages", () => {
    const file = path.join(dir, "old.db");
    const old = new Database(file);
    old.pragma("page_size = 4096");
    old.exec("CREATE TABLE t (x); INSERT INTO t VALUES (1)");
    old.close();
    const db = openSqliteDatabase("file:" + file);
    expect(pageSize(db)).toBe(4096);
    expect(db.prepare("SELECT x FROM t").pluck().get()).toBe(1);
    db.close();
  });
});
