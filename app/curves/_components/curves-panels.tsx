import { AccuracyByLengthChart } from "@/components/charts/accuracy-by-length-chart";
import { HorizonVsSizeChart } from "@/components/charts/horizon-vs-size-chart";
import { runStyles } from "@/components/charts/palette";
import { StepCurvesChart } from "@/components/charts/step-curves-chart";
import { Card } from "@/components/ui/card";
import type { CurveRun } from "@/lib/queries/curves";
import { itemsAtLengthTemplate, type CurvesParams } from "@/lib/url/curves";
import { runPath } from "@/lib/url/shared";
import { HorizonTable } from "./horizon-table";
import { commonLengthUnit } from "@/lib/analysis/length-unit";

/** The charts and table of /curves for the selected runs (the charts are client components: the server's HTML holds their SVG, the payload only their data). */
export function CurvesPanels({ runs, p }: { runs: CurveRun[]; p: CurvesParams }) {
  const styles = runStyles(runs.map((r) => r.modelId));
  const styled = runs.map((r, i) => ({ ...r, style: styles[i] }));
  const stepRuns = styled.filter((r) => r.hasSteps && r.task);
  const sized = styled.filter((r) => r.paramsB != null && r.paramsB > 0 && r.horizon);
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <Card
        title="Accuracy by length"
        description="Final-answer accuracy with Wilson 95% bands. Click a point to open that run's items at that length."
      >
        <AccuracyByLengthChart
          answer={p.answer}
          xScale={p.x}
          unit={commonLengthUnit(runs.map((r) => r.lengthUnit))}
          series={styled.map((r) => ({
            key: r.key,
            label: r.label,
            style: r.style,
            points: r.accuracyByLength,
            itemsHref: itemsAtLengthTemplate(r.key),
          }))}
        />
      </Card>
      <Card
        title="Task and step accuracy"
        description="Observed a(i) solid and s(i) dotted by step, the constant-reliability prediction p̂^i dashed; horizon markers where a(i) crosses 0.5 and 0.8, the predicted horizon (◇) where p̂^i does."
      >
        {stepRuns.length === 0 ? (
          <p className="text-sm text-neutral-500">
            None of the selected runs has step-level results (self-conditioning runs only answer one turn).
          </p>
        ) : (
          <StepCurvesChart
            xScale={p.x}
            show={{ step: !p.nostep, predicted: !p.nopred, horizons: !p.nohz }}
            series={stepRuns.map((r) => ({
              key: r.key,
              label: r.label,
              style: r.style,
              task: r.task,
              step: r.step,
              predicted: r.predicted,
              predictedHorizon: r.reliability?.predicted_horizon ?? null,
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
          <HorizonVsSizeChart
            points={sized.map((r) => ({
              key: r.key,
              label: r.label,
              style: r.style,
              paramsB: r.paramsB!,
              h50: r.horizon!.steps,
              lo: r.horizon!.ci?.[0] ?? null,
              hi: r.horizon!.ci?.[1] ?? null,
              censored: r.horizon!.censored,
              thinking: r.thinking,
              href: runPath(r.key),
            }))}
          />
        </Card>
      ) : null}
    </div>
  );
}
