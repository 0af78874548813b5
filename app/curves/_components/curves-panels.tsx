import { LazyAccuracyByLengthChart, LazyHorizonVsSizeChart, LazyStepCurvesChart } from "@/components/charts/lazy-charts";
import { Card } from "@/components/ui/card";
import type { CurveRun } from "@/lib/queries/curves";
import { itemsAtLengthTemplate, type CurvesParams } from "@/lib/url/curves";
import { runPath } from "@/lib/url/shared";
import { HorizonTable } from "./horizon-table";
import { commonLengthUnit } from "@/lib/analysis/length-unit";

/** The charts and table of /curves for the selected runs (server component; the charts are client leaves loaded lazily, see lazy-charts.tsx). */
export function CurvesPanels({ runs, p }: { runs: CurveRun[]; p: CurvesParams }) {
  const stepRuns = runs.filter((r) => r.hasSteps && r.task);
  const sized = runs.map((r, i) => ({ ...r, colorIndex: i })).filter((r) => r.paramsB != null && r.paramsB > 0 && r.horizon);
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <Card
        title="Accuracy by length"
        description="Final-answer accuracy with Wilson 95% bands. Click a point to open that run's items at that length."
      >
        <LazyAccuracyByLengthChart
          wide
          title=""
          answer={p.answer}
          xScale={p.x}
          unit={commonLengthUnit(runs.map((r) => r.lengthUnit))}
          series={runs.map((r) => ({ key: r.key, label: r.label, points: r.accuracyByLength, itemsHref: itemsAtLengthTemplate(r.key) }))}
        />
      </Card>
      <Card
        title="Task and step accuracy"
        description="Observed a(i) and s(i) by step, with the constant-reliability prediction p̂^i dashed; horizon markers where a(i) crosses 0.5 and 0.8."
      >
        {stepRuns.length === 0 ? (
          <p className="text-sm text-neutral-500">
            None of the selected runs has step-level results (self-conditioning runs only answer one turn).
          </p>
        ) : (
          <LazyStepCurvesChart
            wide
            title=""
            xScale={p.x}
            show={{ predicted: !p.nopred }}
            series={stepRuns.map((r) => ({
              key: r.key,
              label: r.label,
              task: r.task,
              step: r.step,
              predicted: r.predicted,
              horizon: r.horizon,
              horizon80: r.horizon80,
            }))}
          />
        )}
      </Card>
      <Card title="Horizons and fits">
        <HorizonTable runs={runs} />
      </Card>
      {sized.length > 0 ? (
        <Card
          title="Horizon vs model size"
          description="H₀.₅ with its bootstrap 95% interval against parameters (log scale); hollow markers are censored (≥ the longest tested length)."
        >
          <LazyHorizonVsSizeChart
            wide
            title=""
            colorBy="run"
            points={sized.map((r) => ({
              key: r.key,
              label: r.label,
              family: r.family,
              paramsB: r.paramsB!,
              h50: r.horizon!.steps,
              lo: r.horizon!.ci?.[0] ?? null,
              hi: r.horizon!.ci?.[1] ?? null,
              censored: r.horizon!.censored,
              thinking: r.thinking,
              href: runPath(r.key),
              colorIndex: r.colorIndex,
            }))}
          />
        </Card>
      ) : null}
    </div>
  );
}
