import { AccuracyByLengthChart } from "@/components/charts/accuracy-by-length-chart";
import { modelStyle } from "@/components/charts/palette";
import { SelfConditioningChart } from "@/components/charts/self-conditioning-chart";
import { StepCurvesChart } from "@/components/charts/step-curves-chart";
import { Card, EmptyState } from "@/components/ui/card";
import { interceptFor, wilson } from "@/lib/analysis/stats";
import { floorCeilingFlag, slopeBootstrapCi } from "@/lib/analysis/selfcond-ci";
import type { RunSummary } from "@/lib/queries/runs";
import { runItemsTemplate } from "@/lib/url/run";
import { lengthUnitOf } from "@/lib/analysis/length-unit";

/** The "Curves" tab: accuracy by length, task/step curves with the p̂^i prediction. */
export function RunCurves({ run }: { run: RunSummary }) {
  const m = run.metrics;
  const sc = m.self_conditioning;
  const style = modelStyle(run.model.id);
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      <Card title="Accuracy by length" description="First and last final answer, Wilson 95% bands. Click a point to open those items.">
        <AccuracyByLengthChart
          series={[
            {
              key: run.key,
              label: run.model.name,
              style,
              points: m.accuracy_by_length,
              itemsHref: runItemsTemplate(run.key, { minLen: "{length}", maxLen: "{length}" }),
            },
          ]}
          answer="both"
          unit={lengthUnitOf(run.source)}
        />
      </Card>
      <Card
        title="Task and step accuracy"
        description="Observed a(i) and s(i) with the constant-reliability prediction p̂^i (dashed); horizons at s = 0.5 and 0.8."
      >
        {m.task_accuracy && m.step_accuracy ? (
          <StepCurvesChart
            series={[
              {
                key: run.key,
                label: run.model.name,
                style,
                task: m.task_accuracy,
                step: m.step_accuracy,
                predicted: run.extras.predicted_task_accuracy,
                predictedHorizon: m.reliability?.predicted_horizon ?? null,
                horizon: m.horizon,
                horizon80: m.horizon_80,
              },
            ]}
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
          <SelfConditioningChart
            series={[
              {
                key: run.key,
                label: run.model.name,
                style,
                points: sc.points.map((p) => ({
                  rate: p.induced_error_rate,
                  n: p.n,
                  correct: p.correct,
                  accuracy: p.accuracy,
                  ci: wilson(p.correct, p.n),
                })),
                slope: sc.slope,
                slopeCi: run.extras.self_conditioning_slope_ci ?? slopeBootstrapCi(sc.points),
                flag: floorCeilingFlag(sc.points)?.short ?? null,
                intercept:
                  sc.slope === null
                    ? null
                    : interceptFor(
                        sc.points.map((p) => ({ x: p.induced_error_rate, y: p.accuracy })),
                        sc.slope,
                      ),
              },
            ]}
          />
        </Card>
      ) : null}
    </div>
  );
}
