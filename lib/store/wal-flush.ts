import fs from "node:fs";

// A load is one transaction, so every page it writes goes to SQLite's WAL, and its COMMIT's
// checkpoint first makes the whole WAL durable (fsync) before copying it into the store: at
// 100,000 items ~0.2–0.3 s of waiting on the disk after the load's work is done. Flushing the
// WAL's new pages while the transaction still writes (on libuv's threads: the writing thread
// never waits) leaves that fsync little to do (docs/performance.md, "Load", stop 50). SQLite
// locks the store and its -shm file, never the -wal file, so closing our descriptor of it
// releases no lock of SQLite's (a POSIX lock goes with any close of its file).

const EVERY_MS = 500;
/** WAL bytes written since the last flush that make one worth it */
const FLUSH_FROM_BYTES = 16 << 20;

/**
 * Starts flushing `walFile` as it grows; the returned function stops (a transaction shorter than
 * EVERY_MS never flushes). The options are for tests.
 */
export function flushWalWhileWriting(walFile: string, { everyMs = EVERY_MS, fromBytes = FLUSH_FROM_BYTES } = {}): () => void {
  let fd: number | null = null;
  let flushing = false;
  let stopped = false;
  let flushedBytes = 0;
  const close = () => {
    if (fd === null) return;
    fs.close(fd, () => {});
    fd = null;
  };
  const timer = setInterval(() => {
    if (flushing) return;
    let bytes: number;
    try {
      fd ??= fs.openSync(walFile, "r");
      bytes = fs.fstatSync(fd).size;
    } catch {
      return; // no WAL yet: nothing to flush
    }
    if (bytes - flushedBytes < fromBytes) return;
    flushing = true;
    fs.fdatasync(fd, () => {
      flushing = false;
      flushedBytes = bytes;
      if (stopped) close();
    });
  }, everyMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
    if (!flushing) close();
  };
}
