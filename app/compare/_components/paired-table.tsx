import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/table/table";
import { fmtPct } from "@/components/ui/format";
import type { PairSummary } from "@/lib/queries/compare";
import { wilson } from "@/lib/analysis/stats";
import { newcombePairedDiffCi } from "@/lib/stats/paired-ci";
import { formatPctCi, formatPts, pStatement } from "./format-p";

/** The 2×2 paired outcome table of one pair with McNemar's test beside it. */
export function PairedTable({ pair, labelA, labelB }: { pair: PairSummary; labelA: string; labelB: string }) {
  const { table, shared, test } = pair;
  const ciA = shared ? wilson(table.both + table.onlyA, shared) : null;
  const ciB = shared ? wilson(table.both + table.onlyB, shared) : null;
  const ciDelta = newcombePairedDiffCi(table);
  const cell = (n: number, tone: string, testId: string, what: string) => (
    <TableCell align="right" className={`px-3! py-2! ${tone}`} data-testid={testId} data-count={n}>
      <span className="text-base font-semibold">{n}</span>
      <span className="ml-1.5 text-xs text-neutral-500">{fmtPct(shared ? n / shared : null)}</span>
      <span className="sr-only"> {what}</span>
    </TableCell>
  );
  return (
    <div className="flex flex-wrap items-start gap-6">
      <Table density="inline" data-testid="paired-table">
        <TableCaption visible>Paired outcomes on {shared} shared items</TableCaption>
        <TableHeader>
          <TableRow>
            <TableCell />
            <TableHead align="right" className="max-w-40 truncate" title={labelB}>
              B right
            </TableHead>
            <TableHead align="right">B wrong</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          <TableRow>
            <TableHead scope="row" className="text-xs font-medium text-neutral-600">
              A right
            </TableHead>
            {cell(table.both, "", "cell-both", "both right")}
            {cell(table.onlyA, "bg-red-50", "cell-only-a", "only A right (regression)")}
          </TableRow>
          <TableRow>
            <TableHead scope="row" className="text-xs font-medium text-neutral-600">
              A wrong
            </TableHead>
            {cell(table.onlyB, "bg-emerald-50", "cell-only-b", "only B right (improvement)")}
            {cell(table.neither, "", "cell-neither", "both wrong")}
          </TableRow>
        </TableBody>
      </Table>
      <dl className="tabular grid grid-cols-[auto_auto] gap-x-4 gap-y-1 text-sm" data-testid="mcnemar">
        <dt className="text-neutral-500">Accuracy A</dt>
        <dd className="font-medium" data-testid="accuracy-a">
          {fmtPct(pair.accA, 1)} <span className="text-xs font-normal text-neutral-500">{formatPctCi(ciA)}</span>
        </dd>
        <dt className="text-neutral-500">Accuracy B</dt>
        <dd className="font-medium" data-testid="accuracy-b">
          {fmtPct(pair.accB, 1)} <span className="text-xs font-normal text-neutral-500">{formatPctCi(ciB)}</span>
        </dd>
        <dt className="text-neutral-500" title="Newcombe's paired score interval (method 10), 95%">
          Δ B − A
        </dt>
        <dd data-testid="accuracy-delta">
          {pair.accA != null && pair.accB != null ? (
            <>
              <span
                className={`font-medium ${pair.accB < pair.accA ? "text-red-700" : pair.accB > pair.accA ? "text-emerald-700" : "text-neutral-500"}`}
              >
                {formatPts(pair.accB - pair.accA)}
              </span>{" "}
              <span className="text-xs text-neutral-500">
                {ciDelta ? `[${formatPts(ciDelta[0]).replace(" pts", "")}, ${formatPts(ciDelta[1])}] paired 95% CI` : ""}
              </span>
            </>
          ) : (
            "—"
          )}
        </dd>
        <dt className="text-neutral-500">Discordant pairs</dt>
        <dd>
          {test.b} only A · {test.c} only B
        </dd>
        <dt className="text-neutral-500">McNemar</dt>
        <dd>
          {test.method === "none" ? (
            "no discordant pairs"
          ) : (
            <>
              <span className="font-semibold" data-testid="mcnemar-p">
                {pStatement(test.p)}
              </span>
              <span className="ml-2 text-xs text-neutral-500">
                {test.method === "exact" ? "exact binomial, two-sided" : `χ² = ${test.statistic!.toFixed(2)}, continuity-corrected`}
              </span>
            </>
          )}
        </dd>
      </dl>
      <p className="sr-only">
        A is {labelA}; B is {labelB}.
      </p>
    </div>
  );
}
