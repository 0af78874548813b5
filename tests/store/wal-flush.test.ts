// A long SQLite transaction's WAL is flushed while it writes (lib/store/wal-flush.ts): the
// flushes happen, one at a time, the descriptor is closed when the transaction ends, and
// closing it leaves SQLite's locks where they were.
import Database from "better-sqlite3";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushWalWhileWriting } from "../../lib/store/wal-flush";

// Another process's connection: connections of one process share SQLite's own lock bookkeeping,
// so only another process sees what the kernel's locks say.
const writeLockFromAnotherProcess = (file: string) =>
  execFileSync(
    process.execPath,
    [
      "-e",
      `const db = new (require("better-sqlite3"))(${JSON.stringify(file)}, { timeout: 0 });
       try { db.exec("BEGIN IMMEDIATE"); db.exec("ROLLBACK"); process.stdout.write("taken"); }
       catch (e) { process.stdout.write(e.code === "SQLITE_BUSY" ? "busy" : String(e)); }`,
    ],
    { encoding: "utf8" },
  );
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const openDescriptorsOf = (file: string) =>
  fs.readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  });

describe("flushWalWhileWriting", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-wal-flush-"));
  afterEach(() => vi.restoreAllMocks());

  it("flushes the WAL while the transaction lasts, and closes its descriptor when stopped", async () => {
    const wal = path.join(dir, "grows.db-wal");
    fs.writeFileSync(wal, Buffer.alloc(1500));
    const flushed: number[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const spy = vi.spyOn(fs, "fdatasync").mockImplementation(((fd: number, cb: (e: Error | null) => void) => {
      flushed.push(fd);
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      // a flush that outlasts several ticks: the next waits for it
      setTimeout(() => {
        inFlight--;
        cb(null);
      }, 15);
    }) as typeof fs.fdatasync);
    const stop = flushWalWhileWriting(wal, { everyMs: 5 });
    for (let waited = 0; flushed.length < 3 && waited < 5000; waited += 10) await sleep(10);
    expect(flushed.length).toBeGreaterThanOrEqual(3);
    expect(mostInFlight).toBe(1);
    expect(new Set(flushed).size).toBe(1); // one descriptor, opened once
    expect(openDescriptorsOf(wal)).toHaveLength(1);
    const n = spy.mock.calls.length;
    stop();
    await sleep(50);
    expect(spy.mock.calls.length).toBe(n);
    expect(openDescriptorsOf(wal)).toHaveLength(0);
  });

  it("does nothing while there is no WAL, and nothing after it is stopped", async () => {
    const wal = path.join(dir, "none.db-wal");
    const spy = vi.spyOn(fs, "fdatasync");
    const stop = flushWalWhileWriting(wal, { everyMs: 5 });
    await sleep(30);
    stop();
    fs.writeFileSync(wal, Buffer.alloc(100));
    await sleep(30);
    expect(spy).not.toHaveBeenCalled();
    expect(openDescriptorsOf(wal)).toHaveLength(0);
  });

  it("leaves SQLite's write lock held when its descriptor of the WAL is closed mid-transaction", async () => {
    const file = path.join(dir, "locks.db");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.pragma("cache_size = 10"); // a few pages: the transaction's pages spill into the WAL
    db.exec("CREATE TABLE t (x TEXT)");
    db.exec("BEGIN IMMEDIATE");
    const insert = db.prepare("INSERT INTO t VALUES (?)");
    for (let i = 0; i < 3000; i++) insert.run("x".repeat(1000));
    expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(1_000_000);
    const stop = flushWalWhileWriting(`${file}-wal`, { everyMs: 5 });
    await sleep(40);
    stop();
    await sleep(20);
    expect(openDescriptorsOf(`${file}-wal`)).toHaveLength(1); // SQLite's own
    expect(writeLockFromAnotherProcess(file)).toBe("busy");
    db.exec("COMMIT");
    expect(writeLockFromAnotherProcess(file)).toBe("taken");
    db.close();
  });
});
