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
export function capYoungGeneration(): void {
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
