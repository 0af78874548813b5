import { Link } from "@/components/ui/link";
import { Card } from "@/components/ui/card";
import type { StudyResult } from "@/lib/queries/study";
import { studyLegend } from "@/lib/study/definitions";
import type { StudyPreset } from "@/lib/study/presets";
import { studyApiHref, studyCsvHref, studyHref, type StudyParams } from "@/lib/url/study";
import { cellHref } from "./cell-href";
import { CellRuns } from "./cell-runs";
import { StudyChart } from "./study-chart";
import { PresetNote } from "./study-presets";
import { StudyTable } from "./study-table";

/**
 * What the study page shows under its controls: the notices (demo runs left out, the preset's
 * paper and our number, a problem with the choice), then the chart and table with their
 * exports, then the runs of a chosen cell.
 */
export function StudyResultView({ p, result, preset }: { p: StudyParams; result: StudyResult; preset: StudyPreset | null }) {
  const legend = studyLegend(p.series, p.metric);
  const link = { ...p, benchmark: result.benchmark ?? undefined, cs: undefined, cx: undefined };
  return (
    <>
      {result.demoHidden > 0 ? (
        <p className="text-sm text-neutral-600" data-testid="demo-hidden">
          {result.demoHidden} demo runs left out because real runs exist ·{" "}
          <Link href={studyHref({ ...link, demo: "all" })} className="text-sky-700 hover:underline">
            include them
          </Link>
        </p>
      ) : null}
      {preset ? <PresetNote preset={preset} data={result.data} /> : null}
      {result.problem ? (
        <p
          role="alert"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="study-problem"
        >
          {result.problem}
        </p>
      ) : (
        <Card
          title={`${result.runs.length} runs`}
          description={legend}
          actions={
            <span className="flex gap-3 text-xs">
              <Link href={studyCsvHref(link)} prefetch={false} className="text-sky-700 hover:underline" data-testid="study-csv">
                CSV
              </Link>
              <Link href={studyApiHref(link)} prefetch={false} className="text-sky-700 hover:underline">
                JSON
              </Link>
            </span>
          }
        >
          <div className="grid grid-cols-[minmax(0,1fr)] gap-4 p-4 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
            <StudyChart
              p={p}
              data={result.data.map((s) => ({
                name: s.name,
                points: s.points.map((pt) => ({
                  x: pt.x,
                  value: pt.value,
                  ci: pt.ci,
                  n: pt.n,
                  censored: pt.censored,
                  href: cellHref(p, s.name, pt),
                })),
              }))}
              legend={legend}
            />
            <StudyTable p={p} data={result.data} />
          </div>
        </Card>
      )}
      {p.cs && p.cx ? <CellRuns p={p} result={result} /> : null}
    </>
  );
}
