/** Grey placeholder blocks shown while a server page streams in. */
export function SkeletonBlock({ className = "" }: { className?: string }) {
  return <div className={`animate-pulse rounded-md bg-neutral-200/70 ${className}`} />;
}

export function PageSkeleton({ variant = "table" }: { variant?: "table" | "run" | "generation" }) {
  return (
    <div role="status" aria-live="polite" aria-busy="true">
      <span className="sr-only">Loading…</span>
      <SkeletonBlock className="mb-2 h-4 w-48" />
      <SkeletonBlock className="mb-6 h-8 w-72" />
      {variant === "run" ? (
        <div className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          {Array.from({ length: 8 }, (_, i) => (
            <SkeletonBlock key={i} className="h-20" />
          ))}
        </div>
      ) : (
        <SkeletonBlock className="mb-4 h-16" />
      )}
      {variant === "generation" ? (
        <div className="grid gap-4 xl:grid-cols-[3fr_2fr]">
          <SkeletonBlock className="h-96" />
          <SkeletonBlock className="h-96" />
        </div>
      ) : (
        <div className="space-y-2 rounded-lg border border-neutral-200 bg-white p-4">
          {Array.from({ length: 10 }, (_, i) => (
            <SkeletonBlock key={i} className="h-8" />
          ))}
        </div>
      )}
    </div>
  );
}
