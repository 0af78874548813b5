import { Link } from "@/components/ui/link";
import { LegendGlyph } from "@/components/charts/chart-legend";
import type { SeriesStyle } from "@/components/charts/palette";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/table/table";
import { fmtModelSize, fmtPct } from "@/components/ui/format";
import type { SelfCondRunRow } from "@/lib/queries/selfcond";
import { runPath } from "@/lib/url/shared";

/** One row per self-conditioning run: accuracy without and with the most injected errors, and the slope. */
export function SlopeTable({ runs, styles }: { runs: SelfCondRunRow[]; styles: SeriesStyle[] }) {
  return (
    <div className="overflow-x-auto">
      <Table density="inline" className="min-w-full" data-testid="slope-table">
        <TableCaption>OLS slope of accuracy at the target turn on induced error rate</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>Model</TableHead>
            <TableHead>Size</TableHead>
            <TableHead>Thinking</TableHead>
            <TableHead align="right">Target turn</TableHead>
            <TableHead align="right">Rates</TableHead>
            <TableHead align="right" title="Accuracy at the target turn at the lowest induced error rate (the rate in brackets)">
              Lowest rate
            </TableHead>
            <TableHead align="right" title="Accuracy at the target turn at the highest induced error rate (the rate in brackets)">
              Highest rate
            </TableHead>
            <TableHead
              align="right"
              title="Change in accuracy per unit of induced error rate (OLS over the points); red where its 95% CI lies below 0"
            >
              Slope
            </TableHead>
            <TableHead align="right" title="Percentile bootstrap, 1,000 resamples of generations within each rate">
              95% CI
            </TableHead>
            <TableHead>Note</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {runs.map((r, i) => {
            const first = r.points[0];
            const last = r.points[r.points.length - 1];
            // red only for a drop the interval supports: a negative slope whose CI reaches 0 is not told from none
            const drop = r.slopeCi !== null && r.slopeCi[1] < 0;
            return (
              <TableRow key={r.key}>
                <TableCell className="whitespace-nowrap">
                  <span className="flex items-center gap-2">
                    <LegendGlyph color={styles[i].color} marker={styles[i].marker} />
                    <Link href={runPath(r.key)} className="font-medium text-neutral-900 hover:underline" title={r.key}>
                      {r.label}
                    </Link>
                  </span>
                </TableCell>
                <TableCell>{fmtModelSize(r.paramsB) || "—"}</TableCell>
                <TableCell>{r.thinking == null ? "—" : r.thinking ? "yes" : "no"}</TableCell>
                <TableCell align="right">{r.targetTurn ?? "—"}</TableCell>
                <TableCell align="right">{r.points.length}</TableCell>
                <TableCell align="right" className="whitespace-nowrap">
                  {first ? `${fmtPct(first.accuracy)} (${fmtPct(first.rate)})` : "—"}
                </TableCell>
                <TableCell align="right" className="whitespace-nowrap">
                  {last && last !== first ? `${fmtPct(last.accuracy)} (${fmtPct(last.rate)})` : "—"}
                </TableCell>
                <TableCell
                  align="right"
                  className={`font-semibold ${drop ? "text-red-700" : ""}`}
                  data-testid="slope"
                  data-drop={drop ? "yes" : "no"}
                  title={drop || r.slope == null ? undefined : "95% CI includes 0: no drop this sweep can tell from none"}
                >
                  {r.slope == null ? "—" : r.slope.toFixed(3)}
                </TableCell>
                <TableCell align="right" className="whitespace-nowrap text-neutral-600" data-testid="slope-ci">
                  {r.slopeCi ? `[${r.slopeCi[0].toFixed(3)}, ${r.slopeCi[1].toFixed(3)}]` : "—"}
                </TableCell>
                <TableCell className="min-w-40 text-xs text-amber-800" data-testid="range-flag">
                  {r.flag ? <span title={r.flag.text}>{r.flag.text}</span> : null}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
