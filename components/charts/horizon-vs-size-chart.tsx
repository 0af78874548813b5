"use client";

import { Axes, ChartFrame, EmptyChart } from "./chart-frame";
import type { LegendEntry } from "./chart-legend";
import { TOKEN, num } from "./config";
import { linearTicks, logTicks, scale } from "./geometry";
import { ErrorBar, Mark } from "./marks";
import type { SeriesStyle } from "./palette";

export interface HorizonSizePoint {
  key: string;
  /** run or model name, shown as text */
  label: string;
  style: SeriesStyle;
  paramsB: number;
  h50: number;
  lo: number | null;
  hi: number | null;
  censored: boolean;
  thinking?: boolean | null;
  /** link to the run page */
  href?: string | null;
}

export interface HorizonVsSizeChartProps {
  points: HorizonSizePoint[];
  height?: number;
  title?: string;
}

export function HorizonVsSizeChart({ points, height = 300, title }: HorizonVsSizeChartProps) {
  const usable = points.filter((p) => p.paramsB > 0 && Number.isFinite(p.h50));
  if (usable.length === 0)
    return <EmptyChart message="No selected run has a known model size (params_b)." height={height} testId="horizon-vs-size-chart" />;
  const xs = usable.map((p) => p.paramsB);
  const xLo = Math.min(...xs) / 1.5;
  const xHi = Math.max(...xs) * 1.5;
  const yHi = Math.max(...usable.map((p) => p.hi ?? p.h50)) * 1.1 || 1;

  const legend: LegendEntry[] = usable.map((p) => ({ label: p.label, color: p.style.color, marker: p.style.marker }));
  legend.push({ label: "censored (≥ longest length)", color: TOKEN.muted, marker: "circle", hollow: true });
  legend.push({ label: "95% bootstrap CI (bars)", color: TOKEN.muted });

  return (
    <ChartFrame
      name="Horizon H₀.₅ vs model size"
      title={title}
      description={usable.map((p) => `${p.label}: ${p.paramsB}B, H0.5 ${p.censored ? "at least " : ""}${p.h50}`).join("; ")}
      legend={legend}
      height={height}
      testId="horizon-vs-size-chart"
      draw={(plot) => {
        const x = scale([xLo, xHi], [plot.left, plot.right], true);
        const y = scale([0, yHi], [plot.bottom, plot.top]);
        return (
          <>
            <Axes
              plot={plot}
              x={{
                scale: x,
                ticks: logTicks(xLo, xHi),
                format: (v) => `${v >= 1 ? Math.round(v) : num(v, 1)}B`,
                label: "Parameters (billions, log scale)",
              }}
              y={{ scale: y, ticks: linearTicks(0, yHi, plot.narrow ? 4 : 6), format: (v) => String(Math.round(v)), label: "H₀.₅ (steps)" }}
            />
            {usable.map((p) => (
              <g key={p.key} data-series={p.key}>
                {p.lo != null && p.hi != null ? <ErrorBar x={x(p.paramsB)} y0={y(p.lo)} y1={y(p.hi)} color={p.style.color} /> : null}
                <Mark
                  cx={x(p.paramsB)}
                  cy={y(p.h50)}
                  color={p.style.color}
                  marker={p.style.marker}
                  hollow={p.censored}
                  r={5}
                  href={p.href}
                  tip={`${p.label}: ${num(p.paramsB, p.paramsB < 10 ? 1 : 0)}B${p.thinking ? " · thinking" : ""}; H₀.₅ ${p.censored ? "≥ " : ""}${num(p.h50, 0)} steps${p.lo != null && p.hi != null ? ` [${num(p.lo, 0)}, ${num(p.hi, 0)}]` : ""}${p.href ? " — open run" : ""}`}
                />
              </g>
            ))}
          </>
        );
      }}
    />
  );
}
