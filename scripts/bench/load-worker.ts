// Child process of scripts/bench.ts, run from a bundle as the CLI is (util.ts loaderChild): loads one native file into a fresh store and reports
// wall time and peak RSS of this process alone. The load builds the search index as it writes
// (SQLite), as `stepwise ingest` does; searchIndexSeconds times whatever index work is left
// after the commit (none, unless a run was left pending).
import { tuneForLoad } from "../../lib/cli/heap";
import { openStore } from "../../lib/db";
import { loadNative, nativeSource } from "../../lib/store/load";
import { parallelNativeSource } from "../../lib/store/parallel-source";
import { fileChunks } from "../../lib/store/read-lines";
import { indexPendingRuns } from "../../lib/store/search-index";
import { serverCpu } from "./server-cpu";

const [url, file] = process.argv.slice(2);

// When the load's first event came and when its last generation's came: what is before and after
// them is the load's start (the analysis thread's) and its end (the last batch, the metrics, the
// commit; the analysis thread's metrics come as an event of their own after the run's last generation).
// The source's iterator is wrapped by hand: an async generator around it would cost each event
// a turn of its own.
const marks = { firstEvent: 0n, lastGeneration: 0n };
const timed =
  (make: typeof nativeSource): typeof nativeSource =>
  (...args) => {
    const source = make(...args);
    const inner = source.events[Symbol.asyncIterator]();
    const iterator: typeof inner = {
      next: () =>
        inner.next().then((r) => {
          if (r.done) return r;
          const now = process.hrtime.bigint();
          if (marks.firstEvent === 0n) marks.firstEvent = now;
          if (r.value.kind === "prepared" || r.value.kind === "generation") marks.lastGeneration = now;
          return r;
        }),
      return: (value) => inner.return?.(value) ?? Promise.resolve({ done: true, value }),
    };
    return { ...source, events: { [Symbol.asyncIterator]: () => iterator } };
  };

tuneForLoad(); // as `stepwise ingest` does
const store = await openStore(url);
const started = process.hrtime.bigint();
const cpuStarted = process.cpuUsage();
const serverCpuUsed = store.provider === "postgres" ? serverCpu() : () => null;
const report = await loadNative(store, file, fileChunks(file), {
  source: timed(process.env.BENCH_SERIAL === "1" ? nativeSource : parallelNativeSource),
});
const ended = process.hrtime.bigint();
const seconds = Number(ended - started) / 1e9;
const startSeconds = Number(marks.firstEvent - started) / 1e9;
const endSeconds = Number(ended - marks.lastGeneration) / 1e9;
const indexStarted = process.hrtime.bigint();
const indexed = report.ok ? await indexPendingRuns(store.raw) : 0;
const searchIndexSeconds = Number(process.hrtime.bigint() - indexStarted) / 1e9;
// SQLite's checkpoint of the load's WAL runs after its commit on a thread of its own (lib/store/checkpoint-thread.ts): timed apart, its CPU counted
const checkpointStarted = process.hrtime.bigint();
const checkpoint = await store.raw.settled();
const checkpointSeconds = checkpoint ? Number(process.hrtime.bigint() - checkpointStarted) / 1e9 : 0;
if (checkpoint && "error" in checkpoint) throw new Error(`checkpoint: ${checkpoint.error}`);
// CPU time of both threads, load and search index: on a shared machine it moves less than wall time
const cpuUsed = process.cpuUsage(cpuStarted);
const cpuSeconds = (cpuUsed.user + cpuUsed.system) / 1e6;
const serverCpuSeconds = serverCpuUsed();
await store.close();
if (!report.ok) {
  console.error(report.errors.slice(0, 5));
  process.exit(1);
}
const items = report.runs.reduce((t, r) => t + r.items, 0);
console.log(
  JSON.stringify({
    seconds,
    searchIndexSeconds,
    cpuSeconds,
    serverCpuSeconds,
    startSeconds,
    endSeconds,
    checkpointSeconds,
    indexed,
    items,
    generations: report.generations,
    steps: report.steps,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
  }),
);
