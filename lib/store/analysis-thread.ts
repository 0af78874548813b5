import { parentPort, workerData } from "node:worker_threads";
import { NativeReader, progressSteps } from "../native/reader";
import type { ReaderEvent } from "../native/reader";
import { prepareGeneration } from "./rows";
import type { ThreadEvent, ThreadReply, ThreadRequest } from "./parallel-source";

// Parses, validates and analyses native JSONL lines and builds their rows, off the loader's
// thread: the loader only fills in ids and inserts. Replies keep the order of requests.
// The same entry runs an importer instead (lib/import/thread.ts) when started for one.
if ((workerData as { kind?: string }).kind === "import") await import("../import/thread");
else nativeThread();

function nativeThread() {
  const { file, maxErrors } = workerData as { file: string; maxErrors?: number };
  const reader = new NativeReader(file, { maxErrors });
  let reported = 0;

  const wire = (ev: ReaderEvent): ThreadEvent =>
    ev.kind === "run"
      ? ev
      : {
          kind: "prepared",
          line: ev.line,
          progressSteps: progressSteps(ev.analysis),
          p: prepareGeneration(ev),
        };

  parentPort!.on("message", (req: ThreadRequest) => {
    const events: ThreadEvent[] = [];
    if (req.kind === "lines") {
      for (let i = 0; i < req.lines.length; i++) {
        const ev = reader.line(req.lines[i], req.first + i);
        if (ev) events.push(wire(ev));
      }
    } else {
      for (const ev of reader.end()) events.push(wire(ev));
    }
    const reply: ThreadReply = { events, errors: reader.errors.slice(reported) };
    reported = reader.errors.length;
    parentPort!.postMessage(reply);
  });
}
