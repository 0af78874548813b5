/** A titled white panel: the building block of the run and generation pages. */
export function Card({
  title,
  description,
  children,
  className = "",
  id,
  actions,
}: {
  title?: React.ReactNode;
  description?: React.ReactNode;
  children: React.ReactNode;
  className?: string;
  id?: string;
  actions?: React.ReactNode;
}) {
  return (
    <section
      id={id}
      aria-label={typeof title === "string" ? title : undefined}
      className={`rounded-lg border border-neutral-200 bg-white shadow-sm ${className}`}
    >
      {title || actions ? (
        <div className="flex flex-wrap items-start justify-between gap-2 border-b border-neutral-100 px-4 py-3">
          <div>
            {title ? <h2 className="text-sm font-semibold text-neutral-900">{title}</h2> : null}
            {description ? <p className="mt-0.5 text-xs text-neutral-500">{description}</p> : null}
          </div>
          {actions}
        </div>
      ) : null}
      <div className="p-4">{children}</div>
    </section>
  );
}

/** One summary number with its interval and a short explanation. */
export function Stat({
  label,
  value,
  detail,
  title,
  testId,
}: {
  label: string;
  value: React.ReactNode;
  detail?: React.ReactNode;
  title?: string;
  testId?: string;
}) {
  return (
    <div className="rounded-lg border border-neutral-200 bg-white px-4 py-3 shadow-sm" title={title} data-testid={testId}>
      <dt className="text-xs font-medium tracking-wide text-neutral-500 uppercase">{label}</dt>
      <dd className="tabular mt-1 text-lg font-semibold text-neutral-900">{value}</dd>
      {detail ? <dd className="tabular mt-0.5 text-xs text-neutral-500">{detail}</dd> : null}
    </div>
  );
}

/** Explains why a panel has no content instead of drawing an empty chart. */
export function EmptyState({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-neutral-300 bg-neutral-50 px-4 py-8 text-center">
      <p className="text-sm font-medium text-neutral-700">{title}</p>
      {children ? <div className="mt-1 text-sm text-neutral-500">{children}</div> : null}
    </div>
  );
}
