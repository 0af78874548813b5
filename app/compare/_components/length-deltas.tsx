import { fmtPct } from "@/components/ui/format";
import { wilson } from "@/lib/analysis/stats";
import type { PairSummary } from "@/lib/queries/compare";
import { newcombePairedDiffCi } from "@/lib/stats/paired-ci";
import { formatPctCi, formatPts } from "./format-p";

/**
 * Per-length accuracy of A and B on their shared items with Wilson 95% intervals, and the paired
 * difference B − A with Newcombe's paired 95% interval, drawn as a point with whiskers around zero.
 */
export function LengthDeltas({ rows }: { rows: PairSummary["byLength"] }) {
  const withCi = rows.map((r) => ({
    ...r,
    ciA: wilson(r.both + r.onlyA, r.n),
    ciB: wilson(r.both + r.onlyB, r.n),
    ciD: newcombePairedDiffCi({ both: r.both, onlyA: r.onlyA, onlyB: r.onlyB, neither: r.n - r.both - r.onlyA - r.onlyB }),
  }));
  const reach = Math.max(0.05, ...withCi.flatMap((r) => [Math.abs(r.delta), ...(r.ciD ? r.ciD.map(Math.abs) : [])]));
  // Whisker plot in a 200-unit-wide box: 0 at 100, ±reach at the edges.
  const at = (d: number) => 100 + (d / reach) * 96;
  return (
    <div className="overflow-x-auto">
      <table className="tabular w-full text-sm" data-testid="length-deltas">
        <caption className="mb-1 text-left text-xs text-neutral-500">
          Accuracy by length on shared items with Wilson 95% intervals; Δ = B − A with Newcombe&apos;s paired 95% interval
        </caption>
        <thead>
          <tr className="border-b border-neutral-200 text-xs text-neutral-500">
            <th scope="col" className="py-1 pr-3 text-left font-medium">
              Length
            </th>
            <th scope="col" className="px-2 py-1 text-right font-medium">
              n
            </th>
            <th scope="col" className="px-2 py-1 text-right font-medium">
              A
            </th>
            <th scope="col" className="px-2 py-1 text-right font-medium">
              B
            </th>
            <th scope="col" className="px-2 py-1 text-right font-medium">
              Δ [95% CI]
            </th>
            <th scope="col" className="w-1/4 min-w-24 py-1 pl-2 font-medium">
              <span className="sr-only">Difference with interval</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {withCi.map((r) => {
            const tone = r.ciD && r.ciD[1] < 0 ? "text-red-700" : r.ciD && r.ciD[0] > 0 ? "text-emerald-700" : "text-neutral-600";
            return (
              <tr key={r.length} className="border-b border-neutral-100 last:border-0" data-testid="length-delta-row">
                <td className="py-1 pr-3">{r.length}</td>
                <td className="px-2 py-1 text-right text-neutral-500">{r.n}</td>
                <td className="px-2 py-1 text-right whitespace-nowrap">
                  {fmtPct(r.accA)} <span className="text-xs text-neutral-500">{formatPctCi(r.ciA, 0)}</span>
                </td>
                <td className="px-2 py-1 text-right whitespace-nowrap">
                  {fmtPct(r.accB)} <span className="text-xs text-neutral-500">{formatPctCi(r.ciB, 0)}</span>
                </td>
                <td className={`px-2 py-1 text-right whitespace-nowrap ${tone}`} data-testid="length-delta-ci">
                  <span className="font-medium">{formatPts(r.delta, 0)}</span>{" "}
                  <span className="text-xs">{r.ciD ? `[${(r.ciD[0] * 100).toFixed(0)}, ${(r.ciD[1] * 100).toFixed(0)}]` : ""}</span>
                </td>
                <td className="py-1 pl-2" aria-hidden="true">
                  <svg viewBox="0 0 200 12" preserveAspectRatio="none" className="block h-3 w-full">
                    <rect x={99.5} y={0} width={1} height={12} fill="var(--chart-axis)" />
                    {r.ciD ? (
                      <rect
                        x={at(r.ciD[0])}
                        y={5}
                        width={Math.max(1, at(r.ciD[1]) - at(r.ciD[0]))}
                        height={2}
                        fill="currentColor"
                        className={tone}
                      />
                    ) : null}
                    <rect x={at(r.delta) - 2} y={2} width={4} height={8} fill="currentColor" className={tone} />
                  </svg>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
