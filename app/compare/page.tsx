import type { Metadata } from "next";
import { RunPicker } from "@/components/charts/controls/run-picker";
import { Card, EmptyState } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { checkRunAccess, requireReader } from "@/lib/auth/server";
import { comparePageMetadata } from "@/lib/preview/page-metadata";
import { getComparison } from "@/lib/queries/compare";
import { listRunOptions, resolveRunPieces } from "@/lib/queries/run-options";
import { compareHref, parseCompareParams } from "@/lib/url/compare";
import { CompareBody } from "./_components/compare-body";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  return comparePageMetadata(parseCompareParams(await searchParams).runs);
}

export default async function ComparePage({ searchParams }: Props) {
  const ctx = await requireReader();
  const p = parseCompareParams(await searchParams);
  const [options, { keys, unknown }] = await Promise.all([listRunOptions(ctx), resolveRunPieces(ctx, p.runs)]);
  // the same cached check as the page's metadata (one per run and request)
  const checked = await Promise.all(keys.map(async (k) => (await checkRunAccess(k)).r));
  const data = {
    ...(await getComparison(
      ctx,
      checked.flatMap((r) => (r.ok ? [r.run] : [])),
      p,
    )),
    unknown,
  };
  const selected = data.runs.map((r) => r.key);
  const labels = Object.fromEntries(data.runs.map((r) => [r.key, r.label]));
  const keep = compareHref({ answer: p.answer }).split("?")[1] ?? "";

  return (
    <div>
      <PageHeader
        title="Compare"
        subtitle="Two or more runs on the same items: paired outcomes, McNemar's test, first-divergence shifts. The first run is the baseline."
      />
      <Card className="mb-4">
        <RunPicker options={options} selected={selected} labels={labels} basePath="/compare" keep={keep} baseline />
        {data.unknown.length > 0 ? (
          <p role="status" className="mt-2 text-sm text-amber-700">
            Not loaded (ignored): {data.unknown.join(", ")}
          </p>
        ) : null}
      </Card>
      {data.runs.length < 2 ? (
        <EmptyState title="Select at least two runs">
          Pick a baseline and one or more runs evaluated on the same items (the same benchmark variant).
        </EmptyState>
      ) : (
        <CompareBody data={data} p={p} />
      )}
    </div>
  );
}
