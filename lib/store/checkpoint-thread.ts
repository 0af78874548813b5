import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

// A load is one transaction, so its COMMIT would find the whole load in SQLite's WAL and
// checkpoint it there: copy every page into the store and fsync both files, on the thread that
// wrote them (~0.2 s at 30,000 items, ~0.5 s at 100,000; docs/performance.md, "Load", stop 57).
// That thread is also the server's, which then answers no request. So a bulk transaction
// commits without it and the checkpoint runs here, on a thread of its own with a connection of
// its own: PASSIVE, so it never waits for readers or writers, and whatever it leaves SQLite's
// next automatic checkpoint (or the last close) takes. Its data is committed and readable before
// it starts; the checkpoint moves pages, it adds none.

/** What a checkpoint did: WAL frames in the log and copied into the store, or why it failed. */
export type CheckpointResult = { log: number; checkpointed: number } | { error: string };

// The driver's errors do not survive the thread's structured clone: their text is posted instead.
const SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
try {
  const Database = require(workerData.driver);
  const db = new Database(workerData.file, { fileMustExist: true });
  try {
    const [r] = db.pragma("wal_checkpoint(PASSIVE)");
    parentPort.postMessage({ log: r.log, checkpointed: r.checkpointed });
  } finally {
    db.close();
  }
} catch (e) {
  parentPort.postMessage({ error: String((e && e.message) || e) });
}`;

let driver: string | null = null;

/** Checkpoints the WAL of the SQLite store `file` on a new thread; never rejects. */
export function checkpointOffThread(file: string): Promise<CheckpointResult> {
  return new Promise((resolve) => {
    let result: CheckpointResult = { error: "the checkpoint's thread ended without a result" };
    try {
      driver ??= createRequire(import.meta.url).resolve("better-sqlite3");
      const worker = new Worker(SOURCE, { eval: true, workerData: { driver, file } });
      worker.on("message", (m: CheckpointResult) => (result = m));
      worker.on("error", (e) => (result = { error: String(e) }));
      worker.on("exit", () => resolve(result));
    } catch (e) {
      resolve({ error: (e as Error).message });
    }
  });
}
