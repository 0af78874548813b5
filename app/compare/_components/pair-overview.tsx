import Link from "next/link";
import { fmtPct } from "@/components/ui/format";
import type { CompareData } from "@/lib/queries/compare";
import { compareHref, type CompareParams } from "@/lib/url/compare";
import { newcombePairedDiffCi } from "@/lib/stats/paired-ci";
import { formatP, formatPts } from "./format-p";

/** With three or more runs: every run against the baseline, one row each; a row opens its details. */
export function PairOverview({ data, p, runKeys }: { data: CompareData; p: CompareParams; runKeys: string[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="tabular min-w-full text-sm" data-testid="pair-overview">
        <caption className="sr-only">Each run against the baseline {data.runs[0].label}</caption>
        <thead>
          <tr className="border-b border-neutral-200 text-xs text-neutral-500">
            <th scope="col" className="py-2 pr-3 text-left font-medium">
              Run (B)
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Shared items
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Baseline
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              B
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium" title="B − baseline with Newcombe's paired 95% interval">
              Δ [95% CI]
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Only A · only B
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              McNemar p
            </th>
            <th scope="col" className="py-2 pl-3 text-right font-medium">
              Median shift
            </th>
          </tr>
        </thead>
        <tbody>
          {data.pairs.map((pair) => {
            const current = pair.index === data.items.pair;
            return (
              <tr key={pair.b} className={`border-b border-neutral-100 last:border-0 ${current ? "bg-sky-50" : ""}`}>
                <td className="py-2 pr-3">
                  <Link
                    href={compareHref({ ...p, runs: runKeys, vs: pair.index, page: 1 })}
                    aria-current={current ? "true" : undefined}
                    className="font-medium text-sky-700 hover:underline"
                  >
                    {data.runs[pair.index].label}
                  </Link>
                  {current ? <span className="ml-2 text-xs text-neutral-500">(shown below)</span> : null}
                </td>
                <td className="px-3 py-2 text-right">{pair.shared}</td>
                <td className="px-3 py-2 text-right">{fmtPct(pair.accA, 1)}</td>
                <td className="px-3 py-2 text-right">{fmtPct(pair.accB, 1)}</td>
                <td className="px-3 py-2 text-right whitespace-nowrap" data-testid="overview-delta">
                  {pair.accA != null && pair.accB != null ? formatPts(pair.accB - pair.accA) : "—"}
                  {(() => {
                    const ci = newcombePairedDiffCi(pair.table);
                    return ci ? (
                      <span className="ml-1 text-xs text-neutral-500">{`[${(ci[0] * 100).toFixed(1)}, ${(ci[1] * 100).toFixed(1)}]`}</span>
                    ) : null;
                  })()}
                </td>
                <td className="px-3 py-2 text-right">
                  {pair.table.onlyA} · {pair.table.onlyB}
                </td>
                <td className="px-3 py-2 text-right">{pair.test.method === "none" ? "—" : formatP(pair.test.p)}</td>
                <td className="py-2 pl-3 text-right">{pair.divergence.median == null ? "—" : pair.divergence.median}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
