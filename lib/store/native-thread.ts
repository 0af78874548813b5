import { parentPort, workerData } from "node:worker_threads";
import { progressSteps } from "../analysis/analyse";
import { SummaryColumns } from "../analysis/summary-columns";
import type { RunHeader } from "../analysis/types";
import { LineReader, SchemasNeeded, type ReaderEvent } from "../native/line-reader";
import { asBuffer } from "./bytes";
import { prepareGeneration } from "./rows";
import type { AnalysisThreadStart } from "./analysis-thread-start";
import { AHEAD_EVENTS, AheadBuffer } from "./done-ahead";
import type { ThreadEvent, ThreadReply, ThreadRequest } from "./parallel-source";
import { pushRunEnd } from "./run-aggregates";

// The analysis thread of a native load (started through lib/store/analysis-thread.ts): parses,
// validates and analyses native JSONL lines and builds their rows, off the loader's thread: the
// loader only fills in ids and inserts. Replies keep the order of requests.

const REPLY_EVENTS = 8;

export function nativeThread() {
  const { file, maxErrors, itemsInMemory, taken, ahead: pinned, replies } = workerData as AnalysisThreadStart;
  // Without zod until a line needs it (lib/native/line-reader.ts): its import was half the thread's start.
  const reader = new LineReader(file, { maxErrors, itemsInMemory }, null);
  let reported = 0;
  const ahead = new AheadBuffer();
  let made = 0;
  // The loader's part done here while the loader has more than enough to write
  // (lib/store/done-ahead.ts). Not where the loader waits on a server (PostgreSQL): its backlog
  // grows while the server writes, not while it computes, and this thread is the busier one
  // there (docs/performance.md, "Load", stop 45).
  const isAhead = pinned ? () => pinned === "always" : () => !loaderWaitsOnServer && made - Atomics.load(taken, 0) > AHEAD_EVENTS;

  let compressesOutputs = false; // told with each batch of lines
  let loaderWaitsOnServer = false; // likewise
  // The run's summaries are kept here, not sent: its metrics are computed at its end while the
  // loader writes its last batches, and the loader's thread (SQLite's busier one) neither
  // receives nor keeps them (docs/performance.md, "Load", stop 49).
  let run: { header: RunHeader; columns: SummaryColumns } | null = null;
  let lastLine = 0;
  const endRun = (line: number, last: boolean) => {
    const ended = run;
    run = null;
    if (!ended || reader.errors.length) return; // a failing load writes nothing of it
    made += 2;
    pushRunEnd(
      ended,
      line,
      last,
      (ev) => events.push(ev),
      () => send(false),
    );
  };
  const emit = (ev: ReaderEvent) => {
    made++;
    lastLine = ev.line;
    if (ev.kind === "run") {
      endRun(ev.line, false);
      run = { header: ev.header, columns: new SummaryColumns() };
      events.push(ev);
      return;
    }
    const p = prepareGeneration(ev);
    if (run) {
      run.columns.itemAt(p.itemIndex);
      run.columns.push(p.summary!, p.itemIndex);
      p.summary = null;
    }
    if (isAhead()) ahead.doAhead(p, compressesOutputs);
    events.push({ kind: "prepared", line: ev.line, progressSteps: progressSteps(ev.analysis), p });
  };

  // A batch's events go back in pieces of REPLY_EVENTS: what a scavenge of this thread's young
  // generation copies is the reply being built (a whole batch's was most of this thread's
  // garbage-collection time), and the loader starts on a piece sooner (8 events instead of 32:
  // ~4% off a 100,000-item load; docs/performance.md, "Load").
  let events: ThreadEvent[] = [];
  const send = (done: boolean, spare?: ArrayBuffer) => {
    const reply: ThreadReply = { events, errors: reader.errors.slice(reported), done, spare };
    reported = reader.errors.length;
    events = [];
    const aheadBytes = ahead.take();
    const transfer = [...(spare ? [spare] : []), ...(aheadBytes ? [aheadBytes] : [])];
    if (!loaderWaitsOnServer) return parentPort!.postMessage(reply, transfer);
    replies.postMessage(reply, transfer);
    parentPort!.postMessage(null); // the loader takes the reply from `replies` when it needs it
  };
  // Requests that came while the schemas load, handled in order once they have.
  let waiting: ThreadRequest[] | null = null;
  const needSchemas = (req: ThreadRequest, from: number) => {
    waiting = [];
    import("../native/schema").then(({ lineSchemas }) => {
      reader.useSchemas(lineSchemas);
      const queued = waiting!;
      waiting = null;
      handle(req, from);
      for (const r of queued) handle(r, 0);
    });
  };
  const handle = (req: ThreadRequest, from: number) => {
    if (req.kind === "lines") {
      // each line decoded as it is parsed: a batch's lines never live together as strings
      const bytes = asBuffer(req.bytes);
      const { offsets } = req;
      compressesOutputs = req.compressesOutputs;
      loaderWaitsOnServer = req.loaderWaitsOnServer;
      for (let i = from; i + 1 < offsets.length; i++) {
        let ev: ReaderEvent | null;
        try {
          ev = reader.line(bytes.toString("utf8", offsets[i], offsets[i + 1]), req.first + i);
        } catch (e) {
          if (!(e instanceof SchemasNeeded)) throw e;
          return needSchemas(req, i);
        }
        if (ev) emit(ev);
        if (events.length >= REPLY_EVENTS) send(false);
      }
      send(true, req.bytes.buffer);
    } else {
      for (const ev of reader.end()) emit(ev);
      endRun(lastLine + 1, true);
      send(true);
    }
  };
  parentPort!.on("message", (req: ThreadRequest) => {
    if (waiting) waiting.push(req);
    else handle(req, 0);
  });
}
