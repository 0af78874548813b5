import { Link } from "@/components/ui/link";

/**
 * A segmented toggle whose options are links: the choice lives in the URL, works without
 * JavaScript, and the current one is marked with aria-current (not only by colour).
 */
export function SegmentedLinks({
  label,
  options,
  current,
  testId,
}: {
  label: string;
  options: { id: string; label: string; href: string }[];
  current: string;
  testId?: string;
}) {
  return (
    <div className="flex items-center gap-2 text-sm" data-testid={testId}>
      <span className="text-neutral-600">{label}</span>
      <div role="group" aria-label={label} className="inline-flex overflow-hidden rounded-md border border-neutral-300 bg-white shadow-sm">
        {options.map((o, i) => {
          const active = o.id === current;
          return (
            <Link
              key={o.id}
              href={o.href}
              scroll={false}
              aria-current={active ? "true" : undefined}
              data-option={o.id}
              className={`px-2.5 py-1 ${i > 0 ? "border-l border-neutral-300" : ""} ${
                active ? "bg-neutral-800 font-medium text-white" : "text-neutral-700 hover:bg-neutral-100"
              }`}
            >
              {active ? <span className="sr-only">(selected) </span> : null}
              {o.label}
            </Link>
          );
        })}
      </div>
    </div>
  );
}
