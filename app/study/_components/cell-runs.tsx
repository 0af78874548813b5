import { Link } from "@/components/ui/link";
import { Card } from "@/components/ui/card";
import type { StudyResult } from "@/lib/queries/study";
import { FACTOR_LABELS } from "@/lib/study/definitions";
import { studyCellRunHref, studyHref, type StudyParams } from "@/lib/url/study";

/** The runs behind one point (series cs at x = cx), each a link to its items at that x. */
export function CellRuns({ p, result }: { p: StudyParams; result: StudyResult }) {
  const series = result.data.find((s) => s.name === p.cs);
  const point = series?.points.find((pt) => String(pt.x) === p.cx);
  const runs = point ? result.runs.filter((r) => point.runs.includes(r.key)) : [];
  return (
    <Card
      id="cell-runs"
      title={`Runs behind ${p.cs}, ${FACTOR_LABELS[p.x]} ${p.cx}`}
      actions={
        <Link href={studyHref({ ...p, cs: undefined, cx: undefined })} className="text-xs text-sky-700 hover:underline">
          Close
        </Link>
      }
    >
      {point ? (
        <ul className="divide-y divide-neutral-100 px-4 py-2 text-sm" data-testid="cell-runs">
          {runs.map((r) => (
            <li key={r.key} className="flex flex-wrap items-baseline justify-between gap-2 py-1.5">
              <Link
                href={studyCellRunHref(r.key, p.x, point.x, p.metric)}
                prefetch={false}
                className="break-all text-sky-800 hover:underline"
              >
                {r.key}
              </Link>
              <span className="text-xs text-neutral-500">{r.model}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="px-4 py-3 text-sm text-neutral-600">No such point in this view.</p>
      )}
    </Card>
  );
}
