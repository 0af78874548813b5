import { Link } from "@/components/ui/link";
import { LegendGlyph } from "@/components/charts/chart-legend";
import { runStyles } from "@/components/charts/palette";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/table/table";
import { fmtCI, fmtHorizon, fmtLengthFit, fmtNum, fmtP } from "@/components/ui/format";
import type { CurveRun } from "@/lib/queries/curves";
import { runPath } from "@/lib/url/shared";

/** The numbers behind the curves, one row per selected run, in chart order. */
export function HorizonTable({ runs }: { runs: CurveRun[] }) {
  const styles = runStyles(runs.map((r) => r.modelId));
  return (
    <div className="overflow-x-auto">
      <Table density="inline" className="min-w-full" data-testid="curves-summary">
        <TableCaption>Horizons and fits of the selected runs</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>Run</TableHead>
            <TableHead>Variant</TableHead>
            <TableHead align="right">Items</TableHead>
            <TableHead align="right" title="Leading steps with task accuracy ≥ 0.5, bootstrap 95% CI">
              H₀.₅
            </TableHead>
            <TableHead align="right">H₀.₈</TableHead>
            <TableHead align="right" title="Locally correct steps / reference steps">
              p̂
            </TableHead>
            <TableHead align="right" title="ln 0.5 / ln p̂">
              Predicted H₀.₅
            </TableHead>
            <TableHead align="right" title="Logistic fit of first-answer accuracy on log2 length">
              L50
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {runs.map((r, i) => {
            const l50 = r.lengthFit ? fmtLengthFit(r.lengthFit.l50, r.maxLength, r.lengthUnit) : null;
            return (
              <TableRow key={r.key}>
                <TableCell>
                  <span className="flex items-center gap-2">
                    <LegendGlyph color={styles[i].color} marker={styles[i].marker} />
                    <Link href={runPath(r.key)} className="font-medium text-neutral-900 underline-offset-2 hover:underline" title={r.key}>
                      {r.label}
                    </Link>
                  </span>
                </TableCell>
                <TableCell className="text-neutral-600">
                  {r.benchmark} / {r.variant}
                </TableCell>
                <TableCell align="right">{r.items}</TableCell>
                <TableCell align="right">
                  {r.horizon ? fmtHorizon(r.horizon.steps, r.horizon.censored) : "—"}
                  {r.horizon ? <span className="ml-1 text-xs text-neutral-500">{fmtCI(r.horizon.ci[0], r.horizon.ci[1])}</span> : null}
                </TableCell>
                <TableCell align="right">{r.horizon80 ? fmtHorizon(r.horizon80.steps, r.horizon80.censored) : "—"}</TableCell>
                <TableCell align="right">{r.reliability ? fmtP(r.reliability.p) : "—"}</TableCell>
                <TableCell align="right">
                  {r.reliability ? (r.reliability.predicted_horizon == null ? "∞" : fmtNum(r.reliability.predicted_horizon, 1)) : "—"}
                </TableCell>
                <TableCell align="right" className={l50?.extrapolated ? "text-neutral-500 italic" : undefined}>
                  {l50 ? l50.text : "—"}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
