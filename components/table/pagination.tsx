import { Link } from "@/components/ui/link";

// Server-side paging: every page is a link (no client state), so a page number is part of
// the shared URL. Works from server and client components alike.

export interface PaginationProps {
  page: number;
  pageCount: number;
  total: number;
  pageSize: number;
  hrefFor: (page: number) => string;
  noun?: string;
  /** the total is a lower bound (the count stopped early): show "1,000+" and keep Next */
  more?: boolean;
}

export function Pagination({ page, pageCount, total, pageSize, hrefFor, noun = "rows", more = false }: PaginationProps) {
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  const linkClass = "rounded-md border border-neutral-300 bg-white px-2.5 py-1 text-sm font-medium text-neutral-700 hover:bg-neutral-50";
  const disabledClass = "rounded-md border border-neutral-200 px-2.5 py-1 text-sm text-neutral-300";
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-2 py-3 text-sm text-neutral-600">
      <p className="tabular">
        {from}–{to} of {total}
        {more ? "+" : ""} {noun}
      </p>
      <div className="flex items-center gap-2">
        {page > 1 ? (
          <Link href={hrefFor(page - 1)} scroll={false} className={linkClass} rel="prev">
            ← Previous
          </Link>
        ) : (
          <span className={disabledClass} aria-disabled="true">
            ← Previous
          </span>
        )}
        <span className="tabular">
          Page {page} of {pageCount}
          {more ? "+" : ""}
        </span>
        {page < pageCount || more ? (
          <Link href={hrefFor(page + 1)} scroll={false} className={linkClass} rel="next">
            Next →
          </Link>
        ) : (
          <span className={disabledClass} aria-disabled="true">
            Next →
          </span>
        )}
      </div>
    </nav>
  );
}
