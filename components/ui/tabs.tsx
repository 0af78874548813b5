import { Link } from "@/components/ui/link";

/** Tabs are links: the selected tab is part of the URL, so it survives sharing and reload. */
export function LinkTabs({
  tabs,
  current,
  label,
}: {
  tabs: { id: string; label: string; href: string; count?: number }[];
  current: string;
  label: string;
}) {
  return (
    <nav aria-label={label} className="mb-4 flex gap-1 overflow-x-auto border-b border-neutral-200">
      {tabs.map((t) => {
        const active = t.id === current;
        return (
          <Link
            key={t.id}
            href={t.href}
            scroll={false}
            aria-current={active ? "page" : undefined}
            data-tab={t.id}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap ${
              active
                ? "border-neutral-900 text-neutral-900"
                : "border-transparent text-neutral-500 hover:border-neutral-300 hover:text-neutral-800"
            }`}
          >
            {t.label}
            {t.count !== undefined ? (
              <span className="tabular ml-1.5 rounded bg-neutral-100 px-1.5 text-xs text-neutral-600">{t.count}</span>
            ) : null}
          </Link>
        );
      })}
    </nav>
  );
}
