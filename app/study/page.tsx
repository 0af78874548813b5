import type { Metadata } from "next";
import { Card, EmptyState } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requireReader } from "@/lib/auth/server";
import { getStudy } from "@/lib/queries/study";
import { activePreset } from "@/lib/study/presets";
import { parseStudyParams } from "@/lib/url/study";
import { StudyControls } from "./_components/study-controls";
import { StudyPresets } from "./_components/study-presets";
import { StudyResultView } from "./_components/study-result";

export const metadata: Metadata = { title: "Study" };
export const dynamic = "force-dynamic";

export default async function StudyPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const p = parseStudyParams(await searchParams);
  const result = await getStudy(await requireReader(), p);
  const preset = activePreset(p, result.benchmark);
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
          <StudyResultView p={p} result={result} preset={preset} />
        </>
      )}
    </div>
  );
}
