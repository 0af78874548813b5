import { CopyLinkButton } from "./copy-link-button";

/** Title row of every view, with the copy-link action on the right. */
export function PageHeader({
  title,
  subtitle,
  eyebrow,
  actions,
}: {
  title: React.ReactNode;
  subtitle?: React.ReactNode;
  eyebrow?: React.ReactNode;
  actions?: React.ReactNode;
}) {
  return (
    <div className="mb-5 flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        {eyebrow ? <div className="mb-1 text-sm text-neutral-500">{eyebrow}</div> : null}
        <h1 className="text-xl font-semibold tracking-tight break-words text-neutral-900 sm:text-2xl">{title}</h1>
        {subtitle ? <div className="mt-1 text-sm text-neutral-600">{subtitle}</div> : null}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {actions}
        <CopyLinkButton />
      </div>
    </div>
  );
}
