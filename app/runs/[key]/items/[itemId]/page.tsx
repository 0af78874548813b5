import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { GenerationNav } from "@/components/generation/generation-nav";
import { DivergenceCallout, GenerationFacts } from "@/components/generation/generation-summary";
import { RawOutput } from "@/components/generation/raw-output";
import { StepsUnavailable, StepTable } from "@/components/generation/step-table";
import { StepTarget } from "@/components/generation/step-target";
import { TurnTable } from "@/components/generation/turn-table";
import { PageHeader } from "@/components/ui/page-header";
import { requireRunAccess } from "@/lib/auth/server";
import { generationPageMetadata } from "@/lib/preview/page-metadata";
import { getGeneration } from "@/lib/queries/generation";
import { parseGenerationParams } from "@/lib/url/generation";
import { runHref } from "@/lib/url/run";
import { routeParam } from "@/lib/url/shared";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ key: string; itemId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const p = await params;
  return generationPageMetadata(routeParam(p.key), routeParam(p.itemId), parseGenerationParams(await searchParams).epoch);
}

export default async function GenerationPage({ params, searchParams }: Props) {
  const p = await params;
  const key = routeParam(p.key);
  const { ctx, run } = await requireRunAccess(key);
  const { epoch } = parseGenerationParams(await searchParams);
  const d = await getGeneration(ctx, run, routeParam(p.itemId), epoch);
  if (!d) notFound();

  return (
    <>
      <PageHeader
        eyebrow={
          <nav aria-label="Breadcrumb" className="flex flex-wrap items-center gap-1">
            <Link href="/" className="hover:underline">
              Leaderboard
            </Link>
            <span aria-hidden="true">/</span>
            <Link href={runHref(key)} className="hover:underline">
              {d.run.model} · {d.run.variant}
            </Link>
          </nav>
        }
        title={<span className="font-mono">{d.item.id}</span>}
        subtitle={`${d.run.benchmark} · length ${d.item.length}${d.epochs.length > 1 ? ` · epoch ${d.epoch}` : ""}`}
      />
      <GenerationNav detail={d} />
      <DivergenceCallout detail={d} />
      <GenerationFacts detail={d} />
      <div className="grid grid-cols-1 items-start gap-4 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        {d.stepsError ? (
          <StepsUnavailable reason={d.stepsError} />
        ) : d.analysis.turns ? (
          <TurnTable detail={d} />
        ) : d.steps.length ? (
          <StepTable detail={d} />
        ) : null}
        <div className="xl:sticky xl:top-16">
          <RawOutput detail={d} />
        </div>
      </div>
      <StepTarget />
    </>
  );
}
