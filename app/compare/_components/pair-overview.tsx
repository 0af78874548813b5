import { Link } from "@/components/ui/link";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/table/table";
import { fmtPct } from "@/components/ui/format";
import type { CompareData } from "@/lib/queries/compare";
import { compareHref, type CompareParams } from "@/lib/url/compare";
import { holmAdjust } from "@/lib/stats/mcnemar";
import { newcombePairedDiffCi } from "@/lib/stats/paired-ci";
import { formatP, formatPts } from "./format-p";

/** With three or more runs: every run against the baseline, one row each; a row opens its details. */
export function PairOverview({ data, p, runKeys }: { data: CompareData; p: CompareParams; runKeys: string[] }) {
  // several runs against one baseline are several tests: Holm's adjustment keeps the chance of any false positive ≤ 5%
  const holm = holmAdjust(data.pairs.map((pair) => (pair.test.method === "none" ? null : pair.test.p)));
  return (
    <div className="overflow-x-auto">
      <Table density="inline" className="min-w-full" data-testid="pair-overview">
        <TableCaption>Each run against the baseline {data.runs[0].label}</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>Run (B)</TableHead>
            <TableHead align="right">Shared items</TableHead>
            <TableHead align="right">Baseline</TableHead>
            <TableHead align="right">B</TableHead>
            <TableHead align="right" title="B − baseline with Newcombe's paired 95% interval">
              Δ [95% CI]
            </TableHead>
            <TableHead align="right">Only A · only B</TableHead>
            <TableHead align="right">McNemar p</TableHead>
            <TableHead
              align="right"
              title={`McNemar p adjusted for the ${data.pairs.length} comparisons with the baseline (Holm): read this one to call a difference significant`}
            >
              Holm p
            </TableHead>
            <TableHead align="right">Median shift</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {data.pairs.map((pair, i) => {
            const current = pair.index === data.items.pair;
            const ci = newcombePairedDiffCi(pair.table);
            return (
              <TableRow key={pair.b} className={current ? "bg-sky-50" : undefined}>
                <TableCell>
                  <Link
                    href={compareHref({ ...p, runs: runKeys, vs: pair.index, page: 1 })}
                    aria-current={current ? "true" : undefined}
                    className="font-medium text-sky-700 hover:underline"
                  >
                    {data.runs[pair.index].label}
                  </Link>
                  {current ? <span className="ml-2 text-xs text-neutral-500">(shown below)</span> : null}
                </TableCell>
                <TableCell align="right">{pair.shared}</TableCell>
                <TableCell align="right">{fmtPct(pair.accA, 1)}</TableCell>
                <TableCell align="right">{fmtPct(pair.accB, 1)}</TableCell>
                <TableCell align="right" className="whitespace-nowrap" data-testid="overview-delta">
                  {pair.accA != null && pair.accB != null ? formatPts(pair.accB - pair.accA) : "—"}
                  {ci ? (
                    <span className="ml-1 text-xs text-neutral-500">{`[${(ci[0] * 100).toFixed(1)}, ${(ci[1] * 100).toFixed(1)}]`}</span>
                  ) : null}
                </TableCell>
                <TableCell align="right">
                  {pair.table.onlyA} · {pair.table.onlyB}
                </TableCell>
                <TableCell
                  align="right"
                  data-testid="overview-p"
                  data-p={pair.test.method === "none" ? undefined : (pair.test.p ?? undefined)}
                >
                  {pair.test.method === "none" ? "—" : formatP(pair.test.p)}
                </TableCell>
                <TableCell align="right" data-testid="overview-holm" data-p={holm[i] ?? undefined}>
                  {formatP(holm[i])}
                </TableCell>
                <TableCell align="right">{pair.divergence.median == null ? "—" : pair.divergence.median}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
