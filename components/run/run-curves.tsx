import { LazyAccuracyByLengthChart, LazySelfConditioningChart, LazyStepCurvesChart } from "@/components/charts/lazy-charts";
import { Card, EmptyState } from "@/components/ui/card";
import type { RunSummary } from "@/lib/queries/runs";
import { runItemsTemplate } from "@/lib/url/run";
import { lengthUnitOf } from "@/lib/analysis/length-unit";

/** The "Curves" tab: accuracy by length, task/step curves with the p̂^i prediction. */
export function RunCurves({ run }: { run: RunSummary }) {
  const m = run.metrics;
  const sc = m.self_conditioning;
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      <Card title="Accuracy by length" description="First and last final answer, Wilson 95% bands. Click a point to open those items.">
        <LazyAccuracyByLengthChart
          series={[
            {
              key: run.key,
              label: run.model.name,
              points: m.accuracy_by_length,
              itemsHref: runItemsTemplate(run.key, { minLen: "{length}", maxLen: "{length}" }),
            },
          ]}
          answer="both"
          title=""
          unit={lengthUnitOf(run.source)}
        />
      </Card>
      <Card
        title="Task and step accuracy"
        description="Observed a(i) and s(i) with the constant-reliability prediction p̂^i (dashed); horizons at s = 0.5 and 0.8."
      >
        {m.task_accuracy && m.step_accuracy ? (
          <LazyStepCurvesChart
            series={[
              {
                key: run.key,
                label: run.model.name,
                task: m.task_accuracy,
                step: m.step_accuracy,
                predicted: run.extras.predicted_task_accuracy,
                horizon: m.horizon,
                horizon80: m.horizon_80,
              },
            ]}
            title=""
          />
        ) : (
          <EmptyState title="Step-level analysis unavailable">
            {run.selfConditioning
              ? "A self-conditioning run answers only the target turn, so there are no per-step curves."
              : "This run has no per-step data."}
          </EmptyState>
        )}
      </Card>
      {sc ? (
        <Card
          className="lg:col-span-2"
          title={`Self-conditioning: accuracy at turn ${sc.target_turn} vs induced error rate`}
          description="Errors injected into the history the model sees; the line is the OLS fit."
        >
          <LazySelfConditioningChart
            wide
            series={[
              {
                key: run.key,
                label: run.model.name,
                points: sc.points.map((p) => ({ rate: p.induced_error_rate, n: p.n, correct: p.correct, accuracy: p.accuracy })),
                slope: sc.slope,
                intercept: olsIntercept(sc.points, sc.slope),
                targetTurn: sc.target_turn,
              },
            ]}
            title=""
          />
        </Card>
      ) : null}
    </div>
  );
}

/** Intercept of the stored OLS slope (the §6 JSON keeps only the slope). */
function olsIntercept(points: { induced_error_rate: number; accuracy: number }[], slope: number | null): number | null {
  if (slope === null || points.length === 0) return null;
  const mx = points.reduce((t, p) => t + p.induced_error_rate, 0) / points.length;
  const my = points.reduce((t, p) => t + p.accuracy, 0) / points.length;
  return my - slope * mx;
}
