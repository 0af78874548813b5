import type { ReactNode } from "react";

/** Grey placeholder of a chart card while the server renders the page. */
export function ChartSkeleton({ height = 280 }: { height?: number }) {
  return (
    <div className="rounded-lg border border-neutral-200 bg-white p-4 shadow-sm">
      <div className="mb-3 h-4 w-48 animate-pulse rounded bg-neutral-200" />
      <div style={{ height }} className="animate-pulse rounded bg-neutral-100" />
    </div>
  );
}

/** Page title and a controls bar placeholder, then the given skeleton blocks. */
export function PageSkeleton({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div aria-busy="true" aria-live="polite">
      <h1 className="mb-5 text-xl font-semibold tracking-tight text-neutral-900 sm:text-2xl">{title}</h1>
      <span className="sr-only">Loading…</span>
      <div className="mb-4 h-20 animate-pulse rounded-lg border border-neutral-200 bg-white" />
      <div className="grid gap-4">{children}</div>
    </div>
  );
}

/**
 * Stand-in for a chart whose code (recharts) is still loading: the same box as ChartFrame
 * draws (optional caption row, plot of `height`, legend rows of 16 px with 4 px gaps) so the
 * card keeps its size when the chart replaces it.
 */
export function ChartPlaceholder({ height, title, legendRows = 0 }: { height: number; title?: string; legendRows?: number }) {
  return (
    <div className="min-w-0" aria-busy="true" data-chart-placeholder="">
      {title ? <div className="mb-2 text-sm font-semibold text-neutral-800">{title}</div> : null}
      <div style={{ height }} className="animate-pulse rounded bg-neutral-100">
        <span className="sr-only">Loading chart…</span>
      </div>
      {legendRows > 0 ? <div style={{ height: legendRows * 20 - 4 }} className="mt-2 w-2/3 animate-pulse rounded bg-neutral-100" /> : null}
    </div>
  );
}
