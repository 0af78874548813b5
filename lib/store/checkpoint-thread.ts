import path from "node:path";
import { pathToFileURL } from "node:url";
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

// The thread finds the driver from the first place that has it: a bundler rewrites a resolve in
// our code (Next's server bundle turns it into a module id), never one in this text. The
// driver's errors do not survive the thread's structured clone: their text is posted instead.
const SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
const { createRequire } = require("node:module");
try {
  let Database = null;
  let failure = null;
  for (const from of workerData.from) {
    try {
      Database = createRequire(from)("better-sqlite3");
      break;
    } catch (e) {
      failure = e;
    }
  }
  if (!Database) throw failure;
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

/** Where the thread looks for better-sqlite3 from: this module (the CLI's bundle, tests), the running script (`next start`), the working directory. */
function driverPlaces(): string[] {
  const places = [
    import.meta.url,
    process.argv[1] && pathToFileURL(process.argv[1]).href,
    pathToFileURL(path.join(process.cwd(), "/")).href,
  ];
  return places.filter((p): p is string => typeof p === "string" && p.startsWith("file:"));
}

/** Checkpoints the WAL of the SQLite store `file` on a new thread; never rejects. */
export function checkpointOffThread(file: string): Promise<CheckpointResult> {
  return new Promise((resolve) => {
    let result: CheckpointResult = { error: "the checkpoint's thread ended without a result" };
    try {
      const worker = new Worker(SOURCE, { eval: true, workerData: { from: driverPlaces(), file } });
      worker.on("message", (m: CheckpointResult) => (result = m));
      worker.on("error", (e) => (result = { error: String(e) }));
      worker.on("exit", () => resolve(result));
    } catch (e) {
      resolve({ error: (e as Error).message });
    }
  });
}
