"use client";

import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/table/table";
import { fmtPct } from "@/components/ui/format";
import { wilson } from "@/lib/analysis/stats";
import type { PairSummary } from "@/lib/queries/compare";
import { newcombePairedDiffCi } from "@/lib/stats/paired-ci";
import { formatPctCi, formatPts } from "./format-p";

/**
 * Per-length accuracy of A and B on their shared items with Wilson 95% intervals, and the paired
 * difference B − A with Newcombe's paired 95% interval, drawn as a point with whiskers around zero.
 * A client leaf rendered on the server, like ItemList: its payload is the counts, not ~20 rows of elements.
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
      <Table density="inline" className="w-full" data-testid="length-deltas">
        <TableCaption visible>
          Accuracy by length on shared items with Wilson 95% intervals; Δ = B − A with Newcombe&apos;s paired 95% interval
        </TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>Length</TableHead>
            <TableHead align="right">n</TableHead>
            <TableHead align="right">A</TableHead>
            <TableHead align="right">B</TableHead>
            <TableHead align="right">Δ [95% CI]</TableHead>
            <TableHead className="w-1/4 min-w-24">
              <span className="sr-only">Difference with interval</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {withCi.map((r) => {
            const tone = r.ciD && r.ciD[1] < 0 ? "text-red-700" : r.ciD && r.ciD[0] > 0 ? "text-emerald-700" : "text-neutral-600";
            return (
              <TableRow key={r.length} data-testid="length-delta-row">
                <TableCell>{r.length}</TableCell>
                <TableCell align="right" className="text-neutral-500">
                  {r.n}
                </TableCell>
                <TableCell align="right" className="whitespace-nowrap">
                  {fmtPct(r.accA)} <span className="text-xs text-neutral-500">{formatPctCi(r.ciA, 0)}</span>
                </TableCell>
                <TableCell align="right" className="whitespace-nowrap">
                  {fmtPct(r.accB)} <span className="text-xs text-neutral-500">{formatPctCi(r.ciB, 0)}</span>
                </TableCell>
                <TableCell align="right" className={`whitespace-nowrap ${tone}`} data-testid="length-delta-ci">
                  <span className="font-medium">{formatPts(r.delta, 0)}</span>{" "}
                  <span className="text-xs">{r.ciD ? `[${(r.ciD[0] * 100).toFixed(0)}, ${(r.ciD[1] * 100).toFixed(0)}]` : ""}</span>
                </TableCell>
                <TableCell aria-hidden="true">
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
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
