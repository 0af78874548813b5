"use client";

import { Axes, ChartFrame, EmptyChart } from "./chart-frame";
import type { LegendEntry } from "./chart-legend";
import { DASH, TOKEN, num, pct } from "./config";
import { scale } from "./geometry";
import { ErrorBar, Mark } from "./marks";
import type { SeriesStyle } from "./palette";

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
  style: SeriesStyle;
  points: SelfCondPoint[];
  slope: number | null;
  /** bootstrap 95% interval of the slope */
  slopeCi?: [number, number] | null;
  intercept: number | null;
  /** floor or ceiling warning (lib/analysis/selfcond-ci.ts), shown beside the name */
  flag?: string | null;
  href?: string | null;
}

export interface SelfConditioningChartProps {
  series: SelfCondSeries[];
  height?: number;
  title?: string;
}

export function slopeText(s: { slope: number | null; slopeCi?: [number, number] | null }): string {
  if (s.slope == null) return "slope —";
  return `slope ${num(s.slope, 3)}${s.slopeCi ? ` [${num(s.slopeCi[0], 3)}, ${num(s.slopeCi[1], 3)}]` : ""}`;
}

export function SelfConditioningChart({ series, height = 340, title }: SelfConditioningChartProps) {
  const withData = series.filter((s) => s.points.length > 0);
  if (withData.length === 0) return <EmptyChart message="No self-conditioning points." height={height} testId="self-conditioning-chart" />;
  const xMax = Math.max(1, ...withData.flatMap((s) => s.points.map((p) => p.rate)));

  const legend: LegendEntry[] = withData.map((s) => ({
    label: `${s.label}${s.flag ? ` (${s.flag})` : ""}`,
    color: s.style.color,
    marker: s.style.marker,
  }));
  legend.push({ label: "observed accuracy, 95% Wilson interval (bars)", color: TOKEN.muted, marker: "circle" });
  legend.push({ label: "OLS fit (slope and bootstrap 95% CI in the table)", color: TOKEN.muted, dash: DASH.predicted });

  return (
    <ChartFrame
      name="Accuracy at the target turn vs induced error rate"
      title={title}
      description={withData
        .map((s) => `${s.label}: ${slopeText(s)}; ` + s.points.map((p) => `rate ${p.rate} accuracy ${pct(p.accuracy)}`).join(", "))
        .join("; ")}
      legend={legend}
      height={height}
      testId="self-conditioning-chart"
      draw={(plot) => {
        const x = scale([0, xMax], [plot.left + 6, plot.right - 6]);
        const y = scale([0, 1], [plot.bottom, plot.top]);
        // Several models at the same rate: spread their markers a few pixels apart so none hides another.
        const jitter = (i: number) => (withData.length > 1 ? (i - (withData.length - 1) / 2) * Math.min(2.5, 24 / withData.length) : 0);
        return (
          <>
            <Axes
              plot={plot}
              x={{
                scale: x,
                ticks: xMax === 1 ? [0, 0.25, 0.5, 0.75, 1] : [0, xMax / 2, xMax],
                format: (v) => pct(v),
                label: "Induced error rate in the history",
              }}
              y={{ scale: y, ticks: [0, 0.25, 0.5, 0.75, 1], format: (v) => pct(v), label: "Accuracy at target turn" }}
            />
            {withData.map((s) => {
              if (s.slope == null || s.intercept == null) return null;
              const lo = Math.min(...s.points.map((p) => p.rate));
              const hi = Math.max(...s.points.map((p) => p.rate));
              return (
                <line
                  key={`fit-${s.key}`}
                  x1={x(lo)}
                  x2={x(hi)}
                  y1={y(s.intercept + s.slope * lo)}
                  y2={y(s.intercept + s.slope * hi)}
                  stroke={s.style.color}
                  strokeDasharray={DASH.predicted}
                  strokeWidth={1.5}
                  data-series={s.key}
                />
              );
            })}
            {withData.map((s, i) => (
              <g key={`pts-${s.key}`} data-series={s.key}>
                {s.points.map((p) => {
                  const cx = x(p.rate) + jitter(i);
                  return (
                    <g key={p.rate}>
                      {p.ci ? <ErrorBar x={cx} y0={y(p.ci[0])} y1={y(p.ci[1])} color={s.style.color} /> : null}
                      <Mark
                        cx={cx}
                        cy={y(p.accuracy)}
                        color={s.style.color}
                        marker={s.style.marker}
                        r={4.5}
                        href={s.href}
                        tip={`${s.label}: induced error rate ${pct(p.rate)}, accuracy ${pct(p.accuracy, 1)} (${p.correct}/${p.n})${p.ci ? ` [${pct(p.ci[0])}, ${pct(p.ci[1])}]` : ""}; ${slopeText(s)}${s.flag ? `; ${s.flag}` : ""}`}
                      />
                    </g>
                  );
                })}
              </g>
            ))}
          </>
        );
      }}
    />
  );
}
