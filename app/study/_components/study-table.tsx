import Link from "next/link";
import { FACTOR_LABELS, isFractionMetric } from "@/lib/study/definitions";
import { compareFactorValues, type FactorValue, type StudySeriesResult } from "@/lib/study/pivot";
import type { StudyParams } from "@/lib/url/study";
import { cellHref } from "./cell-href";

/** The chart's numbers: one row per x value, one column per series; each cell links to its items. */
export function StudyTable({ p, data }: { p: StudyParams; data: StudySeriesResult[] }) {
  const xs = [...new Map(data.flatMap((s) => s.points.map((pt) => [String(pt.x), pt.x] as [string, FactorValue]))).values()].sort(
    compareFactorValues,
  );
  const fraction = isFractionMetric(p.metric);
  const fmt = (v: number) => (fraction ? `${(v * 100).toFixed(1)}%` : v.toFixed(1));
  return (
    <div className="overflow-x-auto" data-testid="study-table">
      <table className="w-full text-sm">
        <thead>
          <tr className="border-b border-neutral-200 text-left text-xs text-neutral-600">
            <th scope="col" className="py-1.5 pr-3 font-medium">
              {FACTOR_LABELS[p.x]}
            </th>
            {data.map((s) => (
              <th key={s.name} scope="col" className="px-2 py-1.5 font-medium">
                {s.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {xs.map((x) => (
            <tr key={String(x)} className="border-b border-neutral-100">
              <th scope="row" className="py-1.5 pr-3 text-left font-medium tabular-nums">
                {String(x)}
              </th>
              {data.map((s) => {
                const pt = s.points.find((q) => String(q.x) === String(x));
                return (
                  <td key={s.name} className="px-2 py-1.5 tabular-nums">
                    {pt && pt.value !== null ? (
                      <Link href={cellHref(p, s.name, pt)} className="text-sky-800 hover:underline" data-testid="study-cell">
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
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
