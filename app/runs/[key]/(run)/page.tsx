import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { RunCurves } from "@/components/run/run-curves";
import { RunFailures } from "@/components/run/run-failures";
import { RunHeader } from "@/components/run/run-header";
import { RunItems } from "@/components/run/run-items";
import { RunSummaryStats } from "@/components/run/run-summary";
import { SharePanel } from "@/components/share/share-panel";
import { LinkTabs } from "@/components/ui/tabs";
import { canAdmin } from "@/lib/auth/policy";
import { requireRunAccess } from "@/lib/auth/server";
import { getRunItems } from "@/lib/queries/items";
import { runPageMetadata } from "@/lib/preview/page-metadata";
import { getRunSummary } from "@/lib/queries/runs";
import { effectiveRunTab, parseRunParams, runHref } from "@/lib/url/run";
import { routeParam, runMetricsApiPath } from "@/lib/url/shared";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ key: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return runPageMetadata(routeParam((await params).key));
}

export default async function RunPage({ params, searchParams }: Props) {
  const key = routeParam((await params).key);
  const { ctx, run: access } = await requireRunAccess(key);
  const url = parseRunParams(await searchParams);
  const run = await getRunSummary(ctx, access);
  if (!run) notFound();
  const tab = effectiveRunTab(url);
  const items = tab === "items" ? await getRunItems(ctx, access, url) : null;

  return (
    <>
      <RunHeader run={run} canDelete={canAdmin(ctx.principal)} />
      <RunSummaryStats run={run} />
      <LinkTabs
        label="Run sections"
        current={tab}
        tabs={[
          { id: "curves", label: "Curves", href: runHref(key, { ...url, tab: "curves" }) },
          { id: "failures", label: "Failures", href: runHref(key, { ...url, tab: "failures" }) },
          { id: "items", label: "Items", href: runHref(key, { ...url, tab: "items" }), count: run.generations },
        ]}
      />
      {tab === "curves" ? <RunCurves run={run} /> : null}
      {tab === "failures" ? <RunFailures run={run} /> : null}
      {items ? <RunItems run={run} params={url} items={items} /> : null}
      <p className="mt-8 text-xs text-neutral-500">
        Metrics as stored at load time ·{" "}
        <Link className="underline" href={runMetricsApiPath(key)} prefetch={false}>
          metrics JSON
        </Link>
      </p>
      {/* Editors only (renders nothing for anyone else): share links to this run. */}
      <div className="mt-6">
        <SharePanel ctx={ctx} run={access} />
      </div>
    </>
  );
}
