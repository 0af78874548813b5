import Link from "next/link";
import { LegendGlyph } from "@/components/charts/chart-legend";
import { runStyles } from "@/components/charts/palette";
import { fmtCI, fmtHorizon, fmtLengthFit, fmtNum, fmtP } from "@/components/ui/format";
import type { CurveRun } from "@/lib/queries/curves";
import { runPath } from "@/lib/url/shared";

/** The numbers behind the curves, one row per selected run, in chart order. */
export function HorizonTable({ runs }: { runs: CurveRun[] }) {
  const styles = runStyles(runs.map((r) => r.modelId));
  return (
    <div className="overflow-x-auto">
      <table className="tabular min-w-full text-sm" data-testid="curves-summary">
        <caption className="sr-only">Horizons and fits of the selected runs</caption>
        <thead>
          <tr className="border-b border-neutral-200 text-left text-xs text-neutral-500">
            <th scope="col" className="py-2 pr-3 font-medium">
              Run
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Variant
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Items
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium" title="Leading steps with task accuracy ≥ 0.5, bootstrap 95% CI">
              H₀.₅
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              H₀.₈
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium" title="Locally correct steps / reference steps">
              p̂
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium" title="ln 0.5 / ln p̂">
              Predicted H₀.₅
            </th>
            <th scope="col" className="py-2 pl-3 text-right font-medium" title="Logistic fit of first-answer accuracy on log2 length">
              L50
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r, i) => {
            const l50 = r.lengthFit ? fmtLengthFit(r.lengthFit.l50, r.maxLength, r.lengthUnit) : null;
            return (
              <tr key={r.key} className="border-b border-neutral-100 last:border-0">
                <td className="py-2 pr-3">
                  <span className="flex items-center gap-2">
                    <LegendGlyph color={styles[i].color} marker={styles[i].marker} />
                    <Link href={runPath(r.key)} className="font-medium text-neutral-900 underline-offset-2 hover:underline" title={r.key}>
                      {r.label}
                    </Link>
                  </span>
                </td>
                <td className="px-3 py-2 text-neutral-600">
                  {r.benchmark} / {r.variant}
                </td>
                <td className="px-3 py-2 text-right">{r.items}</td>
                <td className="px-3 py-2 text-right">
                  {r.horizon ? fmtHorizon(r.horizon.steps, r.horizon.censored) : "—"}
                  {r.horizon ? <span className="ml-1 text-xs text-neutral-500">{fmtCI(r.horizon.ci[0], r.horizon.ci[1])}</span> : null}
                </td>
                <td className="px-3 py-2 text-right">{r.horizon80 ? fmtHorizon(r.horizon80.steps, r.horizon80.censored) : "—"}</td>
                <td className="px-3 py-2 text-right">{r.reliability ? fmtP(r.reliability.p) : "—"}</td>
                <td className="px-3 py-2 text-right">
                  {r.reliability ? (r.reliability.predicted_horizon == null ? "∞" : fmtNum(r.reliability.predicted_horizon, 1)) : "—"}
                </td>
                <td className={`py-2 pl-3 text-right ${l50?.extrapolated ? "text-neutral-500 italic" : ""}`}>{l50 ? l50.text : "—"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
