import type { Metadata } from "next";
import Link from "next/link";
import { Card, EmptyState } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requireReader } from "@/lib/auth/server";
import { getStudy } from "@/lib/queries/study";
import { studyLegend } from "@/lib/study/definitions";
import { activePreset } from "@/lib/study/presets";
import { parseStudyParams, studyApiHref, studyCsvHref, studyHref } from "@/lib/url/study";
import { CellRuns } from "./_components/cell-runs";
import { StudyChart } from "./_components/study-chart";
import { StudyControls } from "./_components/study-controls";
import { PresetNote, StudyPresets } from "./_components/study-presets";
import { StudyTable } from "./_components/study-table";

export const metadata: Metadata = { title: "Study" };
export const dynamic = "force-dynamic";

export default async function StudyPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const p = parseStudyParams(await searchParams);
  const result = await getStudy(await requireReader(), p);
  const preset = activePreset(p, result.benchmark);
  const legend = studyLegend(p.series, p.metric);
  const link = { ...p, benchmark: result.benchmark ?? undefined, cs: undefined, cx: undefined };
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <PageHeader title="Study" subtitle="Factor effects across runs: one benchmark's runs pivoted by a factor, from stored aggregates." />
      <StudyPresets active={preset} demo={p.demo} />
      {!result.benchmark ? (
        <EmptyState title="No runs loaded yet">
          Load results with <code>npx stepwise ingest FILE</code> or <code>npx stepwise demo</code>.
        </EmptyState>
      ) : (
        <>
          <Card>
            <div className="p-4">
              <StudyControls p={p} benchmark={result.benchmark} options={result.options} />
            </div>
          </Card>
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
                <StudyChart p={p} data={result.data} legend={legend} />
                <StudyTable p={p} data={result.data} />
              </div>
            </Card>
          )}
          {p.cs && p.cx ? <CellRuns p={p} result={result} /> : null}
        </>
      )}
    </div>
  );
}
