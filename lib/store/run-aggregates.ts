import { computeRunMetrics } from "../analysis/metrics";
import type { SummaryColumns } from "../analysis/summary-columns";
import type { RunHeader } from "../analysis/types";
import { stepCounts } from "./aggregates";
import type { ThreadEvent } from "./parallel-source";
import { studyRows } from "./study-aggregates";

// Everything writeRunMetrics (lib/store/run-record.ts) stores for a run, computed from its
// summaries wherever they are kept: the loader's thread, or the analysis thread of a native
// load, which computes them while the loader writes its last batches (lib/store/native-thread.ts).

/** A run's metrics and stored aggregates; each row's first column, the run's id, is 0 until written. */
export type RunAggregates = ReturnType<typeof runAggregates>;

export function runAggregates(header: RunHeader, summaries: SummaryColumns) {
  const { metrics, extras } = computeRunMetrics(header, summaries);
  // Correctness unknown per item (lm-eval corpus-level metrics): no accuracy or fit from items.
  const unknown = header.config?.per_item_correctness === "unavailable";
  if (unknown) {
    metrics.length_fit = null;
    extras.length_fit_coefficients = null;
    extras.pass_at_k = null;
  }
  const lengthRows = metrics.accuracy_by_length.map((r) => {
    const modes = extras.modes_by_length.find((m) => m.length === r.length)?.modes ?? {};
    return [0, r.length, r.n, r.first_correct, r.last_correct, JSON.stringify(modes)];
  });
  const stepRows = stepCounts(summaries).map((s) => [0, s.step, s.n, s.taskCorrect, s.stepCorrect, s.firstDivergences]);
  return { metrics, extras, unknown, lengthRows, stepRows, study: studyRows(0, header, summaries) };
}

/**
 * The end of a run whose summaries a second thread kept (lib/store/native-thread.ts,
 * lib/import/thread.ts): `runEnd`, sent at once so that the loader writes the run's last rows
 * meanwhile, then the run's aggregates, or what failed computing them.
 */
export function pushRunEnd(
  run: { header: RunHeader; columns: SummaryColumns },
  line: number,
  last: boolean,
  push: (ev: ThreadEvent) => void,
  sendNow: () => void,
): void {
  push({ kind: "runEnd", line, last });
  sendNow();
  try {
    push({ kind: "aggregates", line, aggregates: runAggregates(run.header, run.columns) });
  } catch (e) {
    push({ kind: "aggregates", line, error: (e as Error).message });
  }
}
