"use client";

import { fmtCI, fmtHorizon } from "@/components/ui/format";
import type { CurvePoint, Horizon } from "@/lib/analysis/types";
import { Axes, ChartFrame, EmptyChart, HoverColumns } from "./chart-frame";
import type { LegendEntry } from "./chart-legend";
import { CHART, DASH, TOKEN, num, pct } from "./config";
import { linePath, linearTicks, logTicks, scale, thinTicks } from "./geometry";
import { markerPath } from "./geometry";
import type { SeriesStyle } from "./palette";

export interface StepCurveSeries {
  key: string;
  label: string;
  style: SeriesStyle;
  /** observed task accuracy a(i) */
  task: CurvePoint[] | null;
  /** observed step accuracy s(i) */
  step: CurvePoint[] | null;
  /** p̂^i prediction (RunExtras.predicted_task_accuracy) */
  predicted: CurvePoint[] | null;
  /** where p̂^i crosses 0.5 (RunMetrics.reliability.predicted_horizon) */
  predictedHorizon?: number | null;
  horizon?: Horizon | null;
  horizon80?: Horizon | null;
}

export interface StepCurvesShow {
  task?: boolean;
  step?: boolean;
  predicted?: boolean;
  horizons?: boolean;
}

export interface StepCurvesChartProps {
  series: StepCurveSeries[];
  show?: StepCurvesShow;
  xScale?: "linear" | "log";
  height?: number;
  title?: string;
}

const KINDS = [
  { id: "task", label: "task accuracy a(i)", short: "a(i)", dash: DASH.solid, width: 2.2, opacity: 1 },
  { id: "step", label: "step accuracy s(i)", short: "s(i)", dash: DASH.step, width: 2, opacity: 0.75 },
  { id: "predicted", label: "predicted p̂^i", short: "p̂^i", dash: DASH.predicted, width: 1.6, opacity: 0.9 },
] as const;

/** Curves longer than this are thinned evenly (both ends kept): the lines stay smooth at chart resolution. */
const MAX_POINTS = 400;

function thin(points: CurvePoint[]): CurvePoint[] {
  if (points.length <= MAX_POINTS) return points;
  const every = Math.ceil(points.length / MAX_POINTS);
  return points.filter((_, j) => j % every === 0 || j === points.length - 1);
}

/** As the run's cards and tables write it: a whole number of steps has no ".0". */
function horizonText(h: Horizon): string {
  return fmtHorizon(h.steps, h.censored);
}

export function StepCurvesChart({ series, show, xScale = "linear", height = 320, title }: StepCurvesChartProps) {
  const kinds = KINDS.filter((k) => show?.[k.id] ?? true);
  const showHorizons = show?.horizons ?? true;
  const curves = series.map((s) => ({ s, lines: kinds.map((k) => ({ k, pts: thin(s[k.id] ?? []) })) }));
  const steps = [...new Set(curves.flatMap((c) => c.lines.flatMap((l) => l.pts.map((p) => p.step))))].sort((a, b) => a - b);
  if (steps.length === 0)
    return (
      <EmptyChart
        message="No step-level curves for these runs (or every curve is switched off)."
        height={height}
        testId="step-curves-chart"
      />
    );
  const log = xScale === "log";
  const lo = log ? Math.max(1, steps[0]) : steps[0];
  const hi = steps[steps.length - 1];

  const legend: LegendEntry[] = series.map((s) => ({ label: s.label, color: s.style.color, marker: s.style.marker }));
  for (const k of kinds) legend.push({ label: k.label, color: TOKEN.muted, dash: k.dash });
  if (showHorizons) {
    legend.push({ label: "horizon H₀.₅: a(i) = 0.5 (value on the marker)", color: TOKEN.muted, dash: DASH.marker });
    legend.push({ label: "horizon H₀.₈", color: TOKEN.muted, dash: DASH.marker80 });
    if (kinds.some((k) => k.id === "predicted"))
      legend.push({ label: "predicted horizon: p̂^i = 0.5 (◇)", color: TOKEN.muted, marker: "diamond", hollow: true });
  }

  // Hover columns: at most ~120 per chart, at the steps of the (thinned) curves.
  const hoverSteps = thinTicks(steps, 120);
  const tips = hoverSteps.map((i) =>
    [
      `Step ${i}`,
      ...curves.map(
        ({ s, lines }) =>
          `${s.label}: ` +
          lines
            .map(({ k, pts }) => {
              const p = nearest(pts, i);
              return `${k.short} ${pct(p?.accuracy, 1)}`;
            })
            .join(" · "),
      ),
    ].join("\n"),
  );
  const describe = series
    .map(
      (s) =>
        `${s.label}: horizon H0.5 ${s.horizon ? horizonText(s.horizon) : "n/a"} steps, H0.8 ${s.horizon80 ? horizonText(s.horizon80) : "n/a"} steps, predicted horizon ${num(s.predictedHorizon)}`,
    )
    .join("; ");

  return (
    <ChartFrame
      name="Task and step accuracy by step"
      title={title}
      description={describe}
      legend={legend}
      height={height}
      testId="step-curves-chart"
      columnTips={tips}
      draw={(plot) => {
        const x = scale([lo, hi], [plot.left, plot.right], log);
        const y = scale([0, 1], [plot.bottom, plot.top]);
        const maxTicks = plot.narrow ? 5 : 10;
        const xTicks = thinTicks(log ? logTicks(lo, hi) : linearTicks(lo, hi, maxTicks), maxTicks);
        // Labels right of a marker near the right edge would leave the chart: put them on its left.
        const nearRight = (px: number) => px > plot.right - (plot.narrow ? 70 : 90);
        const inRange = (v: number | null | undefined): v is number => v != null && Number.isFinite(v) && v >= lo && v <= hi;
        return (
          <>
            <Axes
              plot={plot}
              x={{ scale: x, ticks: xTicks, label: `Step i${log ? " (log scale)" : ""}` }}
              y={{ scale: y, ticks: [0, 0.25, 0.5, 0.75, 1], format: (v) => pct(v), label: "Accuracy" }}
            />
            {[0.5, 0.8].map((level) => (
              <g key={level}>
                <line x1={plot.left} x2={plot.right} y1={y(level)} y2={y(level)} stroke={TOKEN.reference} strokeDasharray={DASH.marker} />
                <text x={plot.right - 4} y={y(level) - 4} textAnchor="end" fill={TOKEN.muted} fontSize={CHART.font.note}>
                  {level}
                </text>
              </g>
            ))}
            <HoverColumns plot={plot} xs={hoverSteps.map(x)} />
            {curves.flatMap(({ s, lines }) =>
              lines.map(({ k, pts }) => (
                <path
                  key={`${s.key}-${k.id}`}
                  d={linePath(pts.filter((p) => !log || p.step >= 1).map((p) => [x(p.step), y(p.accuracy)]))}
                  fill="none"
                  stroke={s.style.color}
                  strokeWidth={k.width}
                  strokeDasharray={k.dash}
                  strokeOpacity={k.opacity}
                  pointerEvents="none"
                  data-series={s.key}
                  data-kind={k.id}
                />
              )),
            )}
            {showHorizons
              ? series.map((s, i) => {
                  // Labels of several runs are stacked one row apart so their numbers stay readable.
                  const row = plot.top + 12 + i * 13;
                  const marks: [Horizon | null | undefined, string, string | undefined][] = [
                    [s.horizon, "H₀.₅", DASH.marker],
                    [s.horizon80, "H₀.₈", DASH.marker80],
                  ];
                  return (
                    <g key={`h-${s.key}`} data-horizons={s.key}>
                      {marks.map(([h, name, dash]) =>
                        h && inRange(h.steps) ? (
                          <g key={name} data-tip={`${s.label}: ${name} ${horizonText(h)} steps ${fmtCI(h.ci?.[0], h.ci?.[1])}`}>
                            <line
                              x1={x(h.steps)}
                              x2={x(h.steps)}
                              y1={plot.top}
                              y2={plot.bottom}
                              stroke={s.style.color}
                              strokeDasharray={dash}
                              strokeOpacity={0.85}
                            />
                            <rect x={x(h.steps) - 10} y={plot.top} width={20} height={plot.bottom - plot.top} fill="transparent" />
                            <text
                              x={nearRight(x(h.steps)) ? x(h.steps) - 3 : x(h.steps) + 3}
                              textAnchor={nearRight(x(h.steps)) ? "end" : "start"}
                              y={name === "H₀.₅" ? row : row + 13 * series.length}
                              fill={s.style.color}
                              fontSize={CHART.font.note}
                              paintOrder="stroke"
                              stroke={TOKEN.surface}
                              strokeWidth={3}
                            >
                              {`${name} ${horizonText(h)}`}
                            </text>
                          </g>
                        ) : null,
                      )}
                      {kinds.some((k) => k.id === "predicted") && inRange(s.predictedHorizon) ? (
                        <g data-tip={`${s.label}: predicted horizon (p̂^i = 0.5) ${num(s.predictedHorizon, 1)} steps`}>
                          <path
                            d={markerPath("diamond", x(s.predictedHorizon), y(0.5), 5)}
                            fill={TOKEN.surface}
                            stroke={s.style.color}
                            strokeWidth={1.6}
                          />
                          <text
                            x={nearRight(x(s.predictedHorizon)) ? x(s.predictedHorizon) - 7 : x(s.predictedHorizon) + 7}
                            textAnchor={nearRight(x(s.predictedHorizon)) ? "end" : "start"}
                            y={y(0.5) + 14 + i * 13}
                            fill={s.style.color}
                            fontSize={CHART.font.note}
                            paintOrder="stroke"
                            stroke={TOKEN.surface}
                            strokeWidth={3}
                          >
                            {`predicted ${num(s.predictedHorizon, 1)}`}
                          </text>
                        </g>
                      ) : null}
                    </g>
                  );
                })
              : null}
          </>
        );
      }}
    />
  );
}

function nearest(pts: CurvePoint[], step: number): CurvePoint | undefined {
  let best: CurvePoint | undefined;
  for (const p of pts) if (p.step <= step) best = p;
  return best && best.step === step ? best : (pts.find((p) => p.step >= step) ?? best);
}
