// A long SQLite transaction's WAL is flushed while it writes (lib/store/wal-flush.ts): the
// flushes happen, the descriptor is closed when the transaction ends, and closing it leaves
// SQLite's locks where they were.
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

  it("flushes the WAL as it grows by the given bytes, and closes its descriptor when stopped", async () => {
    const wal = path.join(dir, "grows.db-wal");
    fs.writeFileSync(wal, "");
    const flushed: number[] = [];
    const spy = vi.spyOn(fs, "fdatasync").mockImplementation(((fd: number, cb: (e: Error | null) => void) => {
      flushed.push(fd);
      cb(null);
    }) as typeof fs.fdatasync);
    const stop = flushWalWhileWriting(wal, { everyMs: 5, fromBytes: 1000 });
    await sleep(40);
    expect(flushed).toHaveLength(0); // nothing written yet
    fs.appendFileSync(wal, Buffer.alloc(1500));
    await sleep(40);
    expect(flushed).toHaveLength(1);
    fs.appendFileSync(wal, Buffer.alloc(500)); // under the threshold since the last flush
    await sleep(40);
    expect(flushed).toHaveLength(1);
    fs.appendFileSync(wal, Buffer.alloc(600));
    await sleep(40);
    expect(flushed).toHaveLength(2);
    expect(openDescriptorsOf(wal)).toHaveLength(1);
    stop();
    await sleep(20);
    expect(openDescriptorsOf(wal)).toHaveLength(0);
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it("does nothing while there is no WAL, and nothing after it is stopped", async () => {
    const wal = path.join(dir, "none.db-wal");
    const spy = vi.spyOn(fs, "fdatasync");
    const stop = flushWalWhileWriting(wal, { everyMs: 5, fromBytes: 1 });
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
    const stop = flushWalWhileWriting(`${file}-wal`, { everyMs: 5, fromBytes: 1 });
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
