import type { Metadata } from "next";
import { runStyles } from "@/components/charts/palette";
import { SelfConditioningChart } from "@/components/charts/self-conditioning-chart";
import { Card, EmptyState } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requireReader } from "@/lib/auth/server";
import { getSelfConditioning } from "@/lib/queries/selfcond";
import { parseSelfCondParams } from "@/lib/url/selfcond";
import { runPath } from "@/lib/url/shared";
import { ModelFilter } from "./_components/model-filter";
import { SlopeTable } from "./_components/slope-table";

export const metadata: Metadata = { title: "Self-conditioning" };
export const dynamic = "force-dynamic";

export default async function SelfConditioningPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const ctx = await requireReader();
  const p = parseSelfCondParams(await searchParams);
  const data = await getSelfConditioning(ctx, p.models);
  const styles = runStyles(data.runs.map((r) => r.modelId));

  return (
    <div>
      <PageHeader
        title="Self-conditioning"
        subtitle="Accuracy at the target turn when the history shown to the model holds injected errors, per model, with the fitted OLS line."
      />
      {data.models.length === 0 ? (
        <EmptyState title="No self-conditioning runs loaded">
          Load a dict-sum run whose config has <code>target_turn</code> and <code>induced_error_rate</code> (for example{" "}
          <code>npx stepwise ingest selfcond-small.jsonl</code>).
        </EmptyState>
      ) : (
        <div className="grid min-w-0 grid-cols-1 gap-4">
          <Card>
            <ModelFilter models={data.models} selected={p.models} />
          </Card>
          <Card
            title="Accuracy vs induced error rate"
            description="Points with Wilson 95% intervals; dashed lines are each run's OLS fit over its points. Click a point to open the run."
          >
            <SelfConditioningChart
              series={data.runs.map((r, i) => ({
                key: r.key,
                label: r.label,
                style: styles[i],
                points: r.points,
                slope: r.slope,
                slopeCi: r.slopeCi,
                intercept: r.intercept,
                flag: r.flag?.short ?? null,
                href: runPath(r.key),
              }))}
            />
          </Card>
          <Card title="Slopes">
            <SlopeTable runs={data.runs} styles={styles} />
          </Card>
        </div>
      )}
    </div>
  );
}
