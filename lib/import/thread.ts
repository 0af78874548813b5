// The import thread (started by lib/import/parallel.ts through the analysis thread's entry):
// runs the importer, analyses and builds each generation's rows, and sends them to the
// loader's thread in batches, at most IN_FLIGHT unacknowledged, so memory stays bounded
// whatever the file's size. Unlike ingest's analysis thread it leaves all of the loader's part
// (lib/store/done-ahead.ts) to the loader: reading and parsing an importer's format makes this
// thread the slower of the two, and work it took from the loader lengthened imports (done
// ahead by the loader's backlog, as ingest decides: Inspect 5%, measuring-execution 8% slower
// on PostgreSQL; docs/performance.md, "Importers"). Nor the reverse: the loader building the
// rows of what this thread sends while it keeps up only moved the work (run 15 there).
// As ingest's analysis thread does, it keeps each run's summaries and computes the run's
// aggregates once the run's last generation is sent, while the loader writes its last rows
// (run 18 there).
import { parentPort, workerData } from "node:worker_threads";
import { progressSteps } from "../analysis/analyse";
import { SummaryColumns } from "../analysis/summary-columns";
import type { RunHeader } from "../analysis/types";
import { newProgress } from "../store/load-progress";
import type { ThreadEvent } from "../store/parallel-source";
import { pushRunEnd } from "../store/run-aggregates";
import { prepareGeneration } from "../store/rows";
import type { ImportOptions } from "./options";
import { BATCH_EVENTS, IN_FLIGHT, type ImportThreadData, type ImportThreadMessage } from "./parallel";
import { startImport } from "./start";

const { file, path, size } = workerData as ImportThreadData;
const port = parentPort!;
let credit = IN_FLIGHT;
let wake: (() => void) | null = null;
// The first message is the import's options (parsed while this thread started); each later
// one an acknowledgement: the loader has taken a batch.
let given: ((opts: ImportOptions) => void) | null = null;
const optionsGiven = new Promise<ImportOptions>((r) => (given = r));
port.on("message", (m: ImportOptions | "ack") => {
  if (given) {
    given(m as ImportOptions);
    given = null;
    return;
  }
  credit++;
  wake?.();
});
const opts = await optionsGiven;
const post = (m: ImportThreadMessage) => port.postMessage(m);

const progress = newProgress(size);
const started = await startImport(file, path, size, opts, progress);
if (!("events" in started)) post({ kind: "failed", report: started });
else {
  post({ kind: "start", format: started.format });
  let batch: ThreadEvent[] = [];
  let reported = 0;
  // Runs whose header the loader must see as it is now: importers may complete a run's
  // source after its generations (Inspect's count of errored samples).
  const touched = new Map<string, RunHeader>();
  // Errors go with the batch of the events after them, as the loader must see them in the
  // importer's order (once there is one, it writes nothing more).
  const flush = async (last: boolean, errorCount: number) => {
    send(last, errorCount);
    if (!last && credit <= 0) await new Promise<void>((r) => (wake = r));
    wake = null;
  };
  /** Posts the batch; the next flush waits for the loader while too many are unacknowledged. */
  const send = (last: boolean, errorCount: number) => {
    const errors = started.errors.slice(reported, errorCount);
    reported = errorCount;
    const headers = [...touched.values()];
    const { bytes, lines } = progress;
    if (last) {
      const { notes, truncated } = started.outcome();
      post({ kind: "end", events: batch, errors, headers, bytes, lines, notes, truncated });
      return;
    }
    post({ kind: "batch", events: batch, errors, headers, bytes, lines });
    batch = [];
    touched.clear();
    if (current) touched.set(current.key, current);
    credit--;
  };
  // The open run's summaries, kept here, not sent (lib/store/native-thread.ts does the same).
  let run: { header: RunHeader; columns: SummaryColumns } | null = null;
  let lastLine = 0;
  /** After the open run's last generation: its end goes to the loader at once, then its aggregates. */
  const endRun = (last: boolean) => {
    const ended = run;
    run = null;
    if (!ended || started.errors.length) return; // a failing import writes nothing of it
    pushRunEnd(
      ended,
      lastLine,
      last,
      (ev) => batch.push(ev),
      () => send(false, started.errors.length),
    );
  };
  let current: RunHeader | null = null;
  let seen = 0; // errors found before the last event taken
  for await (const ev of started.events) {
    if (started.errors.length > seen && batch.length > 0) await flush(false, seen);
    seen = started.errors.length;
    lastLine = ev.line;
    if (ev.kind === "run") {
      endRun(false);
      current = ev.header;
      touched.set(current.key, current);
      run = { header: ev.header, columns: new SummaryColumns() };
      batch.push(ev);
    } else if (ev.kind === "generation") {
      const p = prepareGeneration(ev);
      if (run) {
        run.columns.itemAt(p.itemIndex);
        run.columns.push(p.summary!, p.itemIndex);
        p.summary = null;
      }
      batch.push({ kind: "prepared", line: ev.line, progressSteps: progressSteps(ev.analysis), p });
    } else batch.push(ev);
    if (batch.length >= BATCH_EVENTS) await flush(false, seen);
  }
  endRun(true);
  await flush(true, started.errors.length);
}
