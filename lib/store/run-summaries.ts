import { SummaryColumns } from "../analysis/summary-columns";
import type { GenerationSummary } from "../analysis/types";
import type { RunAggregates } from "./run-aggregates";

/**
 * What a run's metrics are computed from, as its writer (lib/store/run-writer.ts) sees it: the
 * summaries of its generations, kept on the loader's thread, or its aggregates as the analysis
 * thread of a native load computed them from the summaries it kept instead of sending them
 * (lib/store/native-thread.ts). Numbers the run's items either way.
 */
export class RunSummaries {
  readonly columns = new SummaryColumns();
  private aggregates: (() => RunAggregates) | null = null;
  /** a generation came without its summary: the aggregates must come from the analysis thread */
  private elsewhere = false;

  /** Takes the item numbered `index` by the reader; true when it is new (SummaryColumns.itemAt). */
  itemAt(index: number): boolean {
    return this.columns.itemAt(index);
  }

  push(summary: GenerationSummary | null, itemIndex: number): void {
    if (summary) this.columns.push(summary, itemIndex);
    else this.elsewhere = true;
  }

  /** The aggregates the analysis thread computed from every generation it sent (`get` throws what failed there). */
  take(get: () => RunAggregates): void {
    this.aggregates = get;
  }

  /** For writeRunMetrics (lib/store/run-record.ts). */
  source(): SummaryColumns | (() => RunAggregates) {
    if (this.aggregates) return this.aggregates;
    if (this.elsewhere) throw new Error("internal: a run's summaries were kept on the analysis thread, and its aggregates did not come");
    return this.columns;
  }
}
