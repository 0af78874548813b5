import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../lib/db";
import { compactSqlite, StoreBusyError } from "../../lib/store/compact";
import { deleteRun } from "../../lib/store/delete-run";
import { loadNative } from "../../lib/store/load";
import { EXAMPLES } from "../helpers/fixtures";
import { storedRuns } from "../helpers/stores";

// `stepwise compact` on a SQLite store made with 4 kB pages (before 16 kB pages were the
// default), a run deleted: the file is rewritten with 16 kB pages and no free page, the runs
// unchanged; with another connection open it refuses. (Bytes saved: docs/performance.md.)

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-compact-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function freePages(file: string): number {
  const d = new Database(file);
  const n = Number(d.pragma("freelist_count", { simple: true }));
  d.close();
  return n;
}

describe("compacting a SQLite store", () => {
  it("rewrites a 4 kB-page store with 16 kB pages, its free space returned, runs unchanged", async () => {
    const file = path.join(dir, "old.db");
    const pre = new Database(file);
    pre.pragma("page_size = 4096"); // as a store made by the previous version
    pre.close();
    const url = "file:" + file;
    let store = await openStore(url);
    for (const f of ["arith-small.jsonl", "generic-small.jsonl"])
      expect((await loadNative(store, f, fs.createReadStream(path.join(EXAMPLES, f)))).errors).toEqual([]);
    // a deleted run's pages, free inside the file, go with the rewrite
    const [gone] = (await storedRuns(store)).filter((r) => r.benchmark === "generic");
    expect(await deleteRun(store.raw, gone.key)).not.toBeNull();
    const runs = await storedRuns(store);
    await store.close();

    const busy = new Database(file);
    busy.prepare(`SELECT COUNT(*) FROM "Run"`).get(); // a connection that has read, as a server's has
    expect(() => compactSqlite(file)).toThrow(StoreBusyError);
    busy.close();

    const r = compactSqlite(file);
    expect(r.pageSize).toBe(16_384);
    expect(r.after).toBeGreaterThan(0);
    expect(freePages(file)).toBe(0);
    const db = new Database(file);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    db.close();
    store = await openStore(url);
    expect(await storedRuns(store)).toEqual(runs);
    await store.close();
  });
});
