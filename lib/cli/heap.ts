import os from "node:os";
import v8 from "node:v8";

// A load makes ~5 KB of short-lived objects per generation (each row as it arrives from the
// analysis thread) while its live set stays small (the run's summaries as columns and an item
// map). V8 lets a heap grow up to 4× its live set before collecting in earnest, so a big load's
// resident memory followed its garbage, not its data; growing it by at most GROWTH_PERCENT
// between full collections bounds it for a little more time (figures: docs/decisions.md). The
// flag cannot be given on node's command line through npx or NODE_OPTIONS, so it is set here,
// before the load starts; V8 reads it at every collection, in every thread.
const GROWTH_PERCENT = Number(process.env.STEPWISE_HEAP_GROWTH ?? 20);
// The main thread's young generation grows to 32 MB (two 16 MB semi-spaces) during a load;
// 16 MB collects as fast (docs/performance.md, "Memory"). Its maximum is fixed when the
// isolate starts, but its growth is not: once it reaches YOUNG_MB it stops growing.
const YOUNG_MB = Number(process.env.STEPWISE_YOUNG_MB ?? 16);

export function boundHeapGrowth(): void {
  if (GROWTH_PERCENT > 0) v8.setFlagsFromString(`--heap-growing-percent=${GROWTH_PERCENT}`);
}

/**
 * For `stepwise ingest`. The flag is the process's, so it also stops the analysis thread's
 * young generation where it is; an import's thread, which wants 32 MB of it, would pay 4–5%
 * more time, so imports (whose peak is well under the limit) leave it alone.
 */
function capYoungGeneration(): void {
  if (YOUNG_MB <= 0) return;
  const check = setInterval(() => {
    const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
    if (!young || young.space_size >= YOUNG_MB * 1e6) {
      v8.setFlagsFromString("--semi-space-growth-factor=1");
      clearInterval(check);
    }
  }, 100);
  check.unref();
}

/**
 * V8's own threads, turned off for `stepwise ingest` on a machine of at most two cores: the
 * collectors' helpers (parallel scavenges and compaction, concurrent marking and sweeping) and
 * the concurrent optimising compiler. A load keeps two threads busy from its first line to its
 * last, so there those helpers took cores from them rather than idle ones; without them a load
 * took ~4% less time (docs/performance.md, "Load", stop 58). Where cores are to spare they are
 * left on. An import's thread, with its larger young generation, was 3–4% slower without the
 * parallel scavenges, so imports keep them. STEPWISE_V8_HELPERS=on or off overrides the choice.
 * Set before any other thread starts (a thread's isolate reads them as it starts), and only
 * flags V8 reads at each collection or as an isolate starts: some others crash a running isolate.
 */
export function v8HelperFlags(cores: number, setting: string | undefined): string[] {
  const off = setting === "off" || (setting !== "on" && cores <= 2);
  if (!off) return [];
  return [
    "--no-parallel-scavenge",
    "--no-concurrent-marking",
    "--no-concurrent-sweeping",
    "--no-parallel-compaction",
    "--no-concurrent-recompilation",
  ];
}

function keepCoresForLoad(): void {
  for (const flag of v8HelperFlags(os.availableParallelism(), process.env.STEPWISE_V8_HELPERS)) v8.setFlagsFromString(flag);
}

/**
 * Everything `stepwise ingest` sets before a load, in one call, so that the bench's load child
 * (scripts/bench/load-worker.ts) measures the same process: the heap's growth, the young
 * generation's cap, V8's helper threads.
 */
export function tuneForLoad(): void {
  boundHeapGrowth();
  capYoungGeneration();
  keepCoresForLoad();
}
