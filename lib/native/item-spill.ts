import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";

// A very large run's item table, moved out of memory into an anonymous temporary SQLite
// database (on disk, deleted when closed or when the process ends): past a size, each item kept
// in memory is ~41 bytes for the rest of the run, each item here a few bytes of SQLite's bounded
// page cache. A lookup costs a few microseconds more than in memory (docs/performance.md,
// "Memory"), paid only by runs of that size. better-sqlite3 is loaded only then: most loads never
// spill, and its module costs ~6 ms of a thread's start.

/** SQLite's page cache for the table (KiB) */
const CACHE_KIB = 4096;

type Statement = BetterSqlite3.Statement<unknown[], unknown>;

export class ItemSpill {
  private readonly db: BetterSqlite3.Database;
  private readonly addItem: Statement;
  private readonly findItem: Statement;
  private readonly addLater: Statement;
  count = 0;

  constructor() {
    const Database = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
    this.db = new Database("");
    this.db.pragma("journal_mode = OFF");
    this.db.pragma("synchronous = OFF");
    this.db.pragma("locking_mode = EXCLUSIVE");
    this.db.pragma(`cache_size = -${CACHE_KIB}`);
    // One transaction for the whole run, never committed (the file goes with the connection):
    // a commit every 16,384 inserts made a new id ~20% slower to add (docs/performance.md, "Memory").
    this.db.exec(`
      CREATE TABLE item (id BLOB PRIMARY KEY, num INTEGER NOT NULL, epoch INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE later (num INTEGER NOT NULL, epoch INTEGER NOT NULL, PRIMARY KEY (num, epoch)) WITHOUT ROWID;
      BEGIN;`);
    this.addItem = this.db.prepare("INSERT OR IGNORE INTO item VALUES (?, ?, ?)");
    this.findItem = this.db.prepare("SELECT num, epoch FROM item WHERE id = ?").raw();
    this.addLater = this.db.prepare("INSERT OR IGNORE INTO later VALUES (?, ?)");
  }

  /** An item the table in memory had, with the epochs it had seen: numbered in order, from 0. */
  take(id: Buffer, firstEpoch: number, laterEpochs: Iterable<number>): void {
    const num = this.count++;
    this.addItem.run(id, num, firstEpoch);
    for (const epoch of laterEpochs) this.addLater.run(num, epoch);
  }

  /** As ItemNumbering.see, for an id given as its bytes (lib/native/item-numbering.ts). */
  see(id: Buffer, epoch: number): { index: number; first: boolean } | null {
    if (this.addItem.run(id, this.count, epoch).changes === 1) return { index: this.count++, first: true };
    const [num, first] = this.findItem.get(id) as [number, number];
    if (first === epoch || this.addLater.run(num, epoch).changes === 0) return null;
    return { index: num, first: false };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
