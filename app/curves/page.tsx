import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { RunPicker } from "@/components/charts/controls/run-picker";
import { Card, EmptyState } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requireReader } from "@/lib/auth/server";
import { getCurveRuns } from "@/lib/queries/curves";
import { listRunOptions, variantGroups } from "@/lib/queries/run-options";
import { curvesHref, parseCurvesParams } from "@/lib/url/curves";
import { CurvesControls } from "./_components/curves-controls";
import { CurvesPanels } from "./_components/curves-panels";

export const metadata: Metadata = { title: "Curves" };
export const dynamic = "force-dynamic";

export default async function CurvesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await requireReader();
  const p = parseCurvesParams(await searchParams);
  const [options, data] = await Promise.all([listRunOptions(ctx), getCurveRuns(ctx, p.runs)]);
  const keys = data.runs.map((r) => r.key);
  const labels = Object.fromEntries(data.runs.map((r) => [r.key, r.label]));
  const keep = curvesHref({ ...p, runs: [] }).split("?")[1] ?? "";
  const groups = variantGroups(options).slice(0, 6);

  return (
    <div>
      <PageHeader
        title="Curves"
        subtitle="Accuracy against length, task and step accuracy against step, and horizons for several runs at once."
      />
      <Card className="mb-4">
        <div className="grid min-w-0 grid-cols-1 gap-3">
          <RunPicker options={options} selected={keys} labels={labels} basePath="/curves" keep={keep} />
          {keys.length > 0 ? <CurvesControls p={p} runs={keys} /> : null}
          {data.unknown.length > 0 ? (
            <p role="status" className="text-sm text-amber-700">
              Not loaded (ignored): {data.unknown.join(", ")}
            </p>
          ) : null}
        </div>
      </Card>
      {data.runs.length === 0 ? (
        <EmptyState title={options.length === 0 ? "No runs loaded yet" : "Select runs to draw their curves"}>
          {options.length === 0 ? (
            <>
              Load results with <code>npx stepwise ingest FILE</code> or <code>npx stepwise demo</code>.
            </>
          ) : groups.length > 0 ? (
            <span className="flex flex-wrap justify-center gap-x-3 gap-y-1">
              Or start with all runs of a variant:
              {groups.map((g) => (
                <Link
                  key={`${g.benchmark}/${g.variant}`}
                  href={curvesHref({ ...p, runs: g.keys })}
                  className="text-sky-700 underline-offset-2 hover:underline"
                >
                  {g.variant} ({g.keys.length})
                </Link>
              ))}
            </span>
          ) : null}
        </EmptyState>
      ) : (
        <CurvesPanels runs={data.runs} p={p} />
      )}
    </div>
  );
}
