import { Link } from "@/components/ui/link";
import { selfCondHref } from "@/lib/url/selfcond";

/** Model chips as links: each toggles one model in `models=` (none selected = all shown). */
export function ModelFilter({ models, selected }: { models: string[]; selected: string[] }) {
  const active = selected.filter((m) => models.includes(m));
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" role="group" aria-label="Models shown" data-testid="model-filter">
      <span className="text-neutral-600">Models</span>
      <Link
        href={selfCondHref({})}
        aria-current={active.length === 0 ? "true" : undefined}
        className={`rounded-full border px-3 py-0.5 ${active.length === 0 ? "border-neutral-800 bg-neutral-800 text-white" : "border-neutral-300 bg-white text-neutral-700 hover:bg-neutral-100"}`}
      >
        All
      </Link>
      {models.map((m) => {
        const on = active.includes(m);
        const next = on ? active.filter((x) => x !== m) : [...active, m];
        return (
          <Link
            key={m}
            href={selfCondHref({ models: next })}
            aria-pressed={on}
            className={`rounded-full border px-3 py-0.5 ${on ? "border-neutral-800 bg-neutral-800 text-white" : "border-neutral-300 bg-white text-neutral-700 hover:bg-neutral-100"}`}
          >
            {on ? <span aria-hidden="true">✓ </span> : null}
            {m}
          </Link>
        );
      })}
    </div>
  );
}
