import type { RawStore } from "../db";
import type { Provider } from "../env";

// PostgreSQL plans from statistics that only ANALYZE (or autovacuum, which may be off or late)
// gathers: without them a freshly loaded store joins runs by nested loops over whole tables
// (docs/decisions.md, figures). A load gathers them for the tables it fills most inside its own
// transaction (ANALYZE samples the transaction's own new rows, and its statistics commit with
// them), sent with the last run's signposts so that the server works on them while the loader's
// thread computes the run's metrics (docs/performance.md, "Load").

/** The statements that gather, in a load's transaction after its last run's rows, the statistics of the tables a load fills most ("" on SQLite). */
export const inLoadStatistics = (provider: Provider): string => (provider === "postgres" ? `ANALYZE "Generation", "Item";` : "");

/**
 * After a load commits (PostgreSQL): VACUUM of Generation sets its visibility map, without which
 * the item table's index-only page reads visit the table once per row they skip
 * (docs/performance.md), and the statistics of the small tables written last. Each costs one
 * pass over the new pages or a few rows.
 */
export async function refreshStatistics(store: RawStore): Promise<void> {
  if (store.raw.provider !== "postgres") return;
  await store.raw.outsideTransaction(`VACUUM "Generation"`);
  await store.raw.outsideTransaction(`ANALYZE "RunLengthStat", "RunStepStat", "RunSignpost"`);
}
