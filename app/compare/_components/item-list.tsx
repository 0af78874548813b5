import Link from "next/link";
import { SegmentedLinks } from "@/components/charts/controls/segmented-links";
import { Pagination } from "@/components/table/pagination";
import type { CompareData, Outcome, PairItem } from "@/lib/queries/compare";
import { COMPARE_PAGE_SIZE, compareHref, type CompareParams, type CompareShow } from "@/lib/url/compare";
import { generationPath } from "@/lib/url/shared";

const OUTCOME: Record<Outcome, { label: string; cls: string }> = {
  regression: { label: "A only (regression)", cls: "bg-red-50 text-red-800 ring-red-600/30" },
  improvement: { label: "B only (improvement)", cls: "bg-emerald-50 text-emerald-800 ring-emerald-600/30" },
  neither: { label: "both wrong", cls: "bg-neutral-100 text-neutral-700 ring-neutral-400/30" },
  both: { label: "both right", cls: "bg-white text-neutral-600 ring-neutral-300" },
};

const SHOWS: { id: CompareShow; label: string }[] = [
  { id: "discordant", label: "Discordant" },
  { id: "regressions", label: "Regressions" },
  { id: "improvements", label: "Improvements" },
  { id: "both-wrong", label: "Both wrong" },
  { id: "shift", label: "Divergence shift" },
  { id: "all", label: "All" },
];

function Verdict({ ok }: { ok: boolean }) {
  return <span className={ok ? "text-emerald-700" : "text-red-700"}>{ok ? "✓ right" : "✗ wrong"}</span>;
}

function shift(it: PairItem): string {
  if (it.aDiv == null || it.bDiv == null) return "—";
  const d = it.bDiv - it.aDiv;
  return d === 0 ? "0" : (d > 0 ? "+" : "−") + Math.abs(d);
}

/** Items of one pair, regressions first; each links to both generations. */
export function ItemList({ data, p, runKeys }: { data: CompareData; p: CompareParams; runKeys: string[] }) {
  const a = data.runs[0];
  const b = data.runs[data.items.pair];
  const { rows, total, page, pages } = data.items;
  const at = (change: Partial<CompareParams>) => compareHref({ ...p, runs: runKeys, page: 1, ...change });
  return (
    <div>
      <SegmentedLinks
        label="Show"
        testId="compare-show"
        current={p.show}
        options={SHOWS.map((s) => ({ id: s.id, label: s.label, href: at({ show: s.id }) }))}
      />
      <div className="mt-3 overflow-x-auto rounded-lg border border-neutral-200">
        <table className="tabular min-w-full divide-y divide-neutral-200 text-sm" data-testid="compare-items">
          <caption className="sr-only">
            Items of {a.label} (A) and {b.label} (B)
          </caption>
          <thead className="bg-neutral-50 text-xs text-neutral-500">
            <tr>
              <th scope="col" className="px-3 py-2 text-left font-medium">
                Item
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Length
              </th>
              <th scope="col" className="px-3 py-2 text-left font-medium">
                Outcome
              </th>
              <th scope="col" className="px-3 py-2 text-left font-medium">
                A
              </th>
              <th scope="col" className="px-3 py-2 text-left font-medium">
                B
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium" title="Step of the first divergence in A and B">
                First divergence A → B
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Shift
              </th>
              <th scope="col" className="px-3 py-2 text-left font-medium">
                Generations
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-neutral-100 bg-white">
            {rows.length === 0 ? (
              <tr>
                <td colSpan={8} className="px-3 py-6 text-center text-neutral-500">
                  No items in this group.
                </td>
              </tr>
            ) : (
              rows.map((it) => (
                <tr key={it.itemKey} data-testid="compare-item">
                  <td className="max-w-56 truncate px-3 py-1.5 font-mono text-xs" title={it.itemKey}>
                    {it.itemKey}
                  </td>
                  <td className="px-3 py-1.5 text-right">{it.length}</td>
                  <td className="px-3 py-1.5">
                    <span className={`rounded px-1.5 py-0.5 text-xs ring-1 ring-inset ${OUTCOME[it.outcome].cls}`}>
                      {OUTCOME[it.outcome].label}
                    </span>
                  </td>
                  <td className="px-3 py-1.5">
                    <Verdict ok={it.aCorrect} />
                  </td>
                  <td className="px-3 py-1.5">
                    <Verdict ok={it.bCorrect} />
                  </td>
                  <td className="px-3 py-1.5 text-right">
                    {it.aDiv ?? "none"} → {it.bDiv ?? "none"}
                  </td>
                  <td className="px-3 py-1.5 text-right">{shift(it)}</td>
                  <td className="px-3 py-1.5 whitespace-nowrap">
                    <Link
                      href={generationPath(a.key, it.itemKey)}
                      className="text-sky-700 hover:underline"
                      aria-label={`Generation of ${a.label} on ${it.itemKey}`}
                    >
                      A
                    </Link>
                    <span className="mx-1.5 text-neutral-300">|</span>
                    <Link
                      href={generationPath(b.key, it.itemKey)}
                      className="text-sky-700 hover:underline"
                      aria-label={`Generation of ${b.label} on ${it.itemKey}`}
                    >
                      B
                    </Link>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <Pagination
        page={page}
        pageCount={pages}
        total={total}
        pageSize={COMPARE_PAGE_SIZE}
        noun="items"
        hrefFor={(n) => compareHref({ ...p, runs: runKeys, page: n })}
      />
    </div>
  );
}
