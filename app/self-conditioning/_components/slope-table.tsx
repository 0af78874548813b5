import Link from "next/link";
import { LegendGlyph } from "@/components/charts/chart-legend";
import type { SeriesStyle } from "@/components/charts/palette";
import { fmtModelSize, fmtPct } from "@/components/ui/format";
import type { SelfCondRunRow } from "@/lib/queries/selfcond";
import { runPath } from "@/lib/url/shared";

/** One row per self-conditioning run: accuracy without and with the most injected errors, and the slope. */
export function SlopeTable({ runs, styles }: { runs: SelfCondRunRow[]; styles: SeriesStyle[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="tabular min-w-full text-sm" data-testid="slope-table">
        <caption className="sr-only">OLS slope of accuracy at the target turn on induced error rate</caption>
        <thead>
          <tr className="border-b border-neutral-200 text-left text-xs text-neutral-500">
            <th scope="col" className="py-2 pr-3 font-medium">
              Model
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Size
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Thinking
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Target turn
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Rates
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Accuracy at lowest rate
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              at highest rate
            </th>
            <th
              scope="col"
              className="py-2 pl-3 text-right font-medium"
              title="Change in accuracy per unit of induced error rate (OLS over the points)"
            >
              Slope
            </th>
            <th
              scope="col"
              className="py-2 pl-3 text-right font-medium"
              title="Percentile bootstrap, 1,000 resamples of generations within each rate"
            >
              95% CI
            </th>
            <th scope="col" className="py-2 pl-3 font-medium">
              Note
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r, i) => {
            const first = r.points[0];
            const last = r.points[r.points.length - 1];
            return (
              <tr key={r.key} className="border-b border-neutral-100 last:border-0">
                <td className="py-2 pr-3">
                  <span className="flex items-center gap-2">
                    <LegendGlyph color={styles[i].color} marker={styles[i].marker} />
                    <Link href={runPath(r.key)} className="font-medium text-neutral-900 hover:underline" title={r.key}>
                      {r.label}
                    </Link>
                  </span>
                </td>
                <td className="px-3 py-2">{fmtModelSize(r.paramsB) || "—"}</td>
                <td className="px-3 py-2">{r.thinking == null ? "—" : r.thinking ? "yes" : "no"}</td>
                <td className="px-3 py-2 text-right">{r.targetTurn ?? "—"}</td>
                <td className="px-3 py-2 text-right">{r.points.length}</td>
                <td className="px-3 py-2 text-right whitespace-nowrap">
                  {first ? `${fmtPct(first.accuracy)} (${fmtPct(first.rate)})` : "—"}
                </td>
                <td className="px-3 py-2 text-right whitespace-nowrap">
                  {last && last !== first ? `${fmtPct(last.accuracy)} (${fmtPct(last.rate)})` : "—"}
                </td>
                <td className={`py-2 pl-3 text-right font-semibold ${r.slope != null && r.slope < 0 ? "text-red-700" : ""}`}>
                  {r.slope == null ? "—" : r.slope.toFixed(3)}
                </td>
                <td className="py-2 pl-3 text-right whitespace-nowrap text-neutral-600" data-testid="slope-ci">
                  {r.slopeCi ? `[${r.slopeCi[0].toFixed(3)}, ${r.slopeCi[1].toFixed(3)}]` : "—"}
                </td>
                <td className="py-2 pl-3 text-xs text-amber-800" data-testid="range-flag">
                  {r.flag ? <span title={r.flag.text}>{r.flag.text}</span> : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
