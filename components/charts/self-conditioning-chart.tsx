"use client";

import {
  CartesianGrid,
  ErrorBar,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  type ScatterShapeProps,
  type TooltipContentProps,
} from "recharts";
import { ChartFrame, EmptyChart } from "./chart-frame";
import { ChartLegend, type LegendEntry } from "./chart-legend";
import { SeriesDot } from "./series-dot";
import { AXIS, DASH, num, pct, seriesColor, seriesSymbol } from "./theme";
import { CHART_DEFAULTS } from "./defaults";

export interface SelfCondPoint {
  rate: number;
  n: number;
  correct: number;
  accuracy: number;
  /** Wilson 95% interval */
  ci?: [number, number] | null;
}

export interface SelfCondSeries {
  key: string;
  /** model name, shown as text */
  label: string;
  points: SelfCondPoint[];
  slope: number | null;
  intercept: number | null;
  targetTurn?: number | null;
}

export interface SelfConditioningChartProps {
  series: SelfCondSeries[];
  height?: number;
  title?: string;
}

type PointRow = SelfCondPoint & { model: string; err: [number, number] };

export function SelfConditioningChart({
  series,
  height = CHART_DEFAULTS.selfConditioning.height,
  title = CHART_DEFAULTS.selfConditioning.title,
}: SelfConditioningChartProps) {
  const withData = series.filter((s) => s.points.length > 0);
  if (withData.length === 0)
    return (
      <ChartFrame title={title}>
        <EmptyChart message="No self-conditioning points." height={height} />
      </ChartFrame>
    );
  const rates = withData.flatMap((s) => s.points.map((p) => p.rate));
  const xMax = Math.max(1, ...rates);

  const legend: LegendEntry[] = withData.map((s, i) => ({ label: s.label, color: seriesColor(i), symbol: seriesSymbol(i) }));
  legend.push({ label: "observed (95% Wilson interval)", color: "#525252", symbol: "circle" });
  legend.push({ label: "OLS fit", color: "#525252", dash: DASH.predicted });

  function Tip({ active, payload }: TooltipContentProps) {
    const p = payload?.[0]?.payload as PointRow | undefined;
    if (!active || !p || p.n == null) return null;
    return (
      <div className="rounded-md border border-neutral-200 bg-white px-3 py-2 text-xs shadow-md tabular">
        <div className="font-semibold text-neutral-800">{p.model}</div>
        <div>Induced error rate {pct(p.rate)}</div>
        <div>
          Accuracy {pct(p.accuracy, 1)} ({p.correct}/{p.n})
          {p.ci ? (
            <span className="text-neutral-500">
              {" "}
              [{pct(p.ci[0])}, {pct(p.ci[1])}]
            </span>
          ) : null}
        </div>
      </div>
    );
  }

  return (
    <ChartFrame
      title={title}
      description={withData
        .map((s) => `${s.label}: slope ${num(s.slope, 3)}; ` + s.points.map((p) => `rate ${p.rate} accuracy ${pct(p.accuracy)}`).join(", "))
        .join("; ")}
      legend={<ChartLegend entries={legend} />}
      testId="self-conditioning-chart"
    >
      <div style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <ScatterChart margin={{ top: 8, right: 16, bottom: 20, left: 4 }}>
            <CartesianGrid stroke={AXIS.grid} strokeDasharray="3 3" />
            <XAxis
              dataKey="rate"
              type="number"
              domain={[0, xMax]}
              ticks={xMax === 1 ? [0, 0.25, 0.5, 0.75, 1] : undefined}
              tickFormatter={(v: number) => pct(v)}
              stroke={AXIS.stroke}
              tick={AXIS.tick}
              label={{ value: "Induced error rate in the history", position: "insideBottom", offset: -12, ...AXIS.label }}
            />
            <YAxis
              dataKey="accuracy"
              type="number"
              domain={[0, 1]}
              ticks={[0, 0.25, 0.5, 0.75, 1]}
              tickFormatter={(v: number) => pct(v)}
              stroke={AXIS.stroke}
              tick={AXIS.tick}
              width={58}
              label={{ value: "Accuracy at target turn", angle: -90, position: "insideLeft", offset: 2, dy: 70, ...AXIS.label }}
            />
            <Tooltip content={Tip} cursor={{ strokeDasharray: "3 3" }} />
            {withData.map((s, i) => {
              if (s.slope == null || s.intercept == null) return null;
              const lo = Math.min(...s.points.map((p) => p.rate));
              const hi = Math.max(...s.points.map((p) => p.rate));
              const fit = [lo, hi].map((r) => ({ rate: r, accuracy: s.intercept! + s.slope! * r }));
              return (
                <Scatter
                  key={`fit-${s.key}`}
                  data={fit}
                  dataKey="accuracy"
                  line={{ stroke: seriesColor(i), strokeDasharray: DASH.predicted, strokeWidth: 1.5 }}
                  shape={() => null}
                  isAnimationActive={false}
                  tooltipType="none"
                  legendType="none"
                />
              );
            })}
            {withData.map((s, i) => (
              <Scatter
                key={`pts-${s.key}`}
                name={s.label}
                data={s.points.map<PointRow>((p) => ({
                  ...p,
                  model: s.label,
                  err: p.ci ? [Math.max(0, p.accuracy - p.ci[0]), Math.max(0, p.ci[1] - p.accuracy)] : [0, 0],
                }))}
                dataKey="accuracy"
                fill={seriesColor(i)}
                isAnimationActive={false}
                shape={(props: ScatterShapeProps) => (
                  <SeriesDot cx={props.cx} cy={props.cy} color={seriesColor(i)} symbol={seriesSymbol(i)} size={64} />
                )}
              >
                <ErrorBar dataKey="err" direction="y" width={4} stroke={seriesColor(i)} strokeOpacity={0.7} isAnimationActive={false} />
              </Scatter>
            ))}
          </ScatterChart>
        </ResponsiveContainer>
      </div>
    </ChartFrame>
  );
}
