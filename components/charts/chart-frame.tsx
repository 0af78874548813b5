import type { ReactNode } from "react";

/**
 * Wrapper of every chart: a titled figure with a text description for screen readers
 * (the SVG itself is decorative apart from its links) and an optional legend below.
 */
export function ChartFrame({
  title,
  description,
  legend,
  children,
  actions,
  testId,
}: {
  title?: string;
  description?: string;
  legend?: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
  testId?: string;
}) {
  return (
    <figure className="min-w-0" data-testid={testId}>
      {title || actions ? (
        <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
          {title ? <figcaption className="text-sm font-semibold text-neutral-800">{title}</figcaption> : <span />}
          {actions}
        </div>
      ) : null}
      {description ? <p className="sr-only">{description}</p> : null}
      {children}
      {legend ? <div className="mt-2">{legend}</div> : null}
    </figure>
  );
}

export function EmptyChart({ message, height = 240 }: { message: string; height?: number }) {
  return (
    <div
      style={{ height }}
      className="flex items-center justify-center rounded-md border border-dashed border-neutral-300 bg-neutral-50 px-4 text-center text-sm text-neutral-500"
    >
      {message}
    </div>
  );
}
