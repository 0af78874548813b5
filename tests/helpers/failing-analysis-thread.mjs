// An analysis thread (lib/store/analysis-thread.ts) that answers its first batch of lines and
// then fails, for tests of how the loader's side takes replies and failures.
import { parentPort, workerData } from "node:worker_threads";

parentPort.on("message", (req) => {
  if (req.kind !== "lines") return;
  const reply = { events: [], errors: [{ file: workerData.file, line: 1, field: "-", message: "first" }], done: true };
  if (req.loaderWaitsOnServer) {
    workerData.replies.postMessage(reply);
    parentPort.postMessage(null);
  } else parentPort.postMessage(reply);
  setTimeout(() => {
    throw new Error("boom");
  }, 50);
});
