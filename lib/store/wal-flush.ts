import fs from "node:fs";

// A load is one transaction, so every page it writes goes to SQLite's WAL, and its COMMIT's
// checkpoint first makes the whole WAL durable (fsync) before copying it into the store: at
// 100,000 items ~0.2–0.3 s of waiting on the disk after the load's work is done. Flushing the
// WAL's pages while the transaction still writes (on libuv's threads: the writing thread never
// waits) leaves that fsync less to do (docs/performance.md, "Load", stop 50). Every tick, not
// by the WAL's growth: a server's WAL keeps its largest size, and a transaction rewrites it
// from the start; ticks come only when the loader's thread turns its event loop, hence a short
// one. SQLite locks the store and its -shm file, never the -wal file, so closing our
// descriptor of it releases no lock of SQLite's (a POSIX lock goes with any close of its file).

const EVERY_MS = 100;

/**
 * Starts flushing `walFile` every `everyMs` (the option is for tests); the returned function
 * stops. A transaction shorter than that never flushes.
 */
export function flushWalWhileWriting(walFile: string, { everyMs = EVERY_MS } = {}): () => void {
  let fd: number | null = null;
  let flushing = false;
  let stopped = false;
  const close = () => {
    if (fd === null) return;
    fs.close(fd, () => {});
    fd = null;
  };
  const timer = setInterval(() => {
    if (flushing) return;
    try {
      fd ??= fs.openSync(walFile, "r");
    } catch {
      return; // no WAL yet: nothing to flush
    }
    flushing = true;
    fs.fdatasync(fd, () => {
      flushing = false;
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
