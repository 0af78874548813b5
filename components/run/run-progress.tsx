"use client";
// Progress of a run being written by `stepwise run` or a dashboard job: done / total and a bar.
// While the run is "running" it asks the router to refresh every few seconds, which re-renders
// the server components of the page (counts, curves) from the store: it fetches nothing itself.
// A run whose writer died stays "running" in the store; after `staleAfterMs` without an update
// it is labelled stalled and the refreshing stops.
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

export interface RunProgressProps {
  status: string;
  done: number;
  total: number | null;
  /** when the store last saw progress (Run.loadedAt), ISO */
  updatedAt?: string | null;
  intervalMs?: number;
  staleAfterMs?: number;
  /** one line, for table cells */
  compact?: boolean;
  /** false: show only (a table with several running runs lets one cell, or none, refresh) */
  refresh?: boolean;
}

export function RunProgress({
  status,
  done,
  total,
  updatedAt,
  intervalMs = 3000,
  staleAfterMs = 10 * 60_000,
  compact = false,
  refresh = true,
}: RunProgressProps) {
  const router = useRouter();
  const [stalled, setStalled] = useState(false);
  const running = status === "running";

  useEffect(() => {
    if (!running || !refresh) return;
    const check = () => {
      const stale = updatedAt ? Date.now() - Date.parse(updatedAt) > staleAfterMs : false;
      setStalled(stale);
      return stale;
    };
    if (check()) return;
    const t = setInterval(() => {
      if (!check()) router.refresh();
    }, intervalMs);
    return () => clearInterval(t);
  }, [running, refresh, updatedAt, intervalMs, staleAfterMs, router]);

  if (!running && !compact) return null;
  if (!running) return <span className="text-xs text-neutral-500">{status}</span>;
  const frac = total ? Math.min(1, done / total) : null;
  const label = stalled ? "stalled" : "running";
  const counts = `${done.toLocaleString("en")}${total ? ` / ${total.toLocaleString("en")}` : ""}`;
  return (
    <div
      role="status"
      aria-live="polite"
      className={compact ? "inline-flex items-center gap-2" : "mb-4 rounded-md border border-amber-200 bg-amber-50 px-3 py-2"}
    >
      <span className="inline-flex items-center gap-2">
        <span className="inline-flex items-center gap-1 text-xs font-medium text-amber-900">
          {stalled ? null : <span aria-hidden="true" className="inline-block h-2 w-2 animate-pulse rounded-full bg-amber-500" />}
          {label}
        </span>
        <span className="text-xs text-amber-900 tabular-nums">
          {counts} generations{frac !== null ? ` (${Math.floor(frac * 100)}%)` : ""}
        </span>
      </span>
      {frac !== null ? (
        <span
          className={`${compact ? "w-16" : "mt-1.5 block w-full"} h-1.5 overflow-hidden rounded bg-amber-100`}
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={total ?? undefined}
          aria-valuenow={done}
          aria-label="generations stored"
        >
          <span className="block h-full bg-amber-500" style={{ width: `${frac * 100}%` }} />
        </span>
      ) : null}
      {!compact && stalled ? (
        <p className="mt-1 text-xs text-amber-900">
          No new results for a while: the writer may have stopped. Run the same `stepwise run` again to resume.
        </p>
      ) : null}
      {!compact && !stalled ? (
        <p className="mt-1 text-xs text-amber-900">Results are arriving; curves and counts refresh every few seconds.</p>
      ) : null}
    </div>
  );
}
