import { Link } from "@/components/ui/link";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/table/table";
import { FACTOR_LABELS, isFractionMetric, metricLabel } from "@/lib/study/definitions";
import { compareFactorValues, type FactorValue, type StudySeriesResult } from "@/lib/study/pivot";
import type { StudyParams } from "@/lib/url/study";
import { cellHref } from "./cell-href";

/** What a "≥" before a study value means (H₀.₅ only). */
const CENSORED_NOTE =
  "A lower bound: at least one run behind this value never fell below 50% within its tested lengths (its H₀.₅ is censored).";

/** The chart's numbers: one row per x value, one column per series; each cell links to its items. */
export function StudyTable({ p, data }: { p: StudyParams; data: StudySeriesResult[] }) {
  const xs = [...new Map(data.flatMap((s) => s.points.map((pt) => [String(pt.x), pt.x] as [string, FactorValue]))).values()].sort(
    compareFactorValues,
  );
  const fraction = isFractionMetric(p.metric);
  const fmt = (v: number) => (fraction ? `${(v * 100).toFixed(1)}%` : v.toFixed(1));
  return (
    <div className="overflow-x-auto" data-testid="study-table">
      <Table density="inline" className="w-full">
        <TableCaption>
          {metricLabel(p.metric)} by {FACTOR_LABELS[p.x]}, one column per series
        </TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>{FACTOR_LABELS[p.x]}</TableHead>
            {data.map((s) => (
              <TableHead key={s.name}>{s.name}</TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {xs.map((x) => (
            <TableRow key={String(x)}>
              <TableHead scope="row" className="font-medium">
                {String(x)}
              </TableHead>
              {data.map((s) => {
                const pt = s.points.find((q) => String(q.x) === String(x));
                return (
                  <TableCell key={s.name}>
                    {pt && pt.value !== null ? (
                      <Link
                        href={cellHref(p, s.name, pt)}
                        className="text-sky-800 hover:underline"
                        data-testid="study-cell"
                        data-censored={pt.censored ? "" : undefined}
                        title={pt.censored ? CENSORED_NOTE : undefined}
                      >
                        {pt.censored ? "≥ " : ""}
                        {fmt(pt.value)}
                        {pt.ci ? (
                          <span className="ml-1 text-xs text-neutral-500">
                            [{fmt(pt.ci[0])}, {fmt(pt.ci[1])}]
                          </span>
                        ) : null}
                        <span className="ml-1 text-xs text-neutral-500">n={pt.n}</span>
                      </Link>
                    ) : (
                      <span className="text-neutral-400">—</span>
                    )}
                  </TableCell>
                );
              })}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
