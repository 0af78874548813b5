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
