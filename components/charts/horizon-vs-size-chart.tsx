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
import { AXIS, logTicks, num, seriesColor, seriesSymbol } from "./theme";
import { CHART_DEFAULTS } from "./defaults";

export interface HorizonSizePoint {
  key: string;
  /** run or model name, shown as text */
  label: string;
  family: string | null;
  paramsB: number;
  h50: number;
  lo: number | null;
  hi: number | null;
  censored: boolean;
  thinking?: boolean | null;
  /** colour/marker index when colorBy = "run" (defaults to the point's position) */
  colorIndex?: number;
  /** link to the run page */
  href?: string | null;
}

export interface HorizonVsSizeChartProps {
  points: HorizonSizePoint[];
  yScale?: "linear" | "log";
  /** "run": one colour and marker per point, in order (matches the other charts of a view) */
  colorBy?: "family" | "run";
  height?: number;
  title?: string;
}

type Row = HorizonSizePoint & { err: [number, number] };

export function HorizonVsSizeChart({
  points,
  yScale = "linear",
  colorBy = "family",
  height = CHART_DEFAULTS.horizonVsSize.height,
  title = CHART_DEFAULTS.horizonVsSize.title,
}: HorizonVsSizeChartProps) {
  const usable = points.filter((p) => p.paramsB > 0 && Number.isFinite(p.h50));
  if (usable.length === 0)
    return (
      <ChartFrame title={title}>
        <EmptyChart message="No selected run has a known model size (params_b)." height={height} />
      </ChartFrame>
    );
  const groupOf = (p: HorizonSizePoint) => (colorBy === "run" ? p.key : (p.family ?? "other"));
  const families = colorBy === "run" ? usable.map((p) => p.key) : [...new Set(usable.map(groupOf))].sort();
  const names = colorBy === "run" ? usable.map((p) => p.label) : families;
  const groups = families.map((f) =>
    usable
      .filter((p) => groupOf(p) === f)
      .map<Row>((p) => ({ ...p, err: [Math.max(0, p.h50 - (p.lo ?? p.h50)), Math.max(0, (p.hi ?? p.h50) - p.h50)] })),
  );
  const xs = usable.map((p) => p.paramsB);
  const xLo = Math.min(...xs) / 1.5;
  const xHi = Math.max(...xs) * 1.5;
  const logY = yScale === "log" && usable.every((p) => p.h50 > 0 && (p.lo ?? 1) > 0);
  const yHi = Math.max(...usable.map((p) => p.hi ?? p.h50)) * 1.1 || 1;

  const colorAt = (i: number) => (colorBy === "run" ? (usable[i].colorIndex ?? i) : i);
  const legend: LegendEntry[] = names.map((f, i) => ({ label: f, color: seriesColor(colorAt(i)), symbol: seriesSymbol(colorAt(i)) }));
  legend.push({ label: "censored (≥ longest length)", color: "#525252", symbol: "circle", hollow: true });
  legend.push({ label: "95% bootstrap CI", color: "#525252", dash: undefined });

  function Tip({ active, payload }: TooltipContentProps) {
    const p = payload?.[0]?.payload as Row | undefined;
    if (!active || !p) return null;
    return (
      <div className="rounded-md border border-neutral-200 bg-white px-3 py-2 text-xs shadow-md tabular">
        <div className="font-semibold text-neutral-800">{p.label}</div>
        <div>
          {num(p.paramsB, p.paramsB < 10 ? 1 : 0)}B parameters{p.thinking ? " · thinking" : ""}
        </div>
        <div>
          H₀.₅ {p.censored ? "≥ " : ""}
          {num(p.h50, 0)} steps
          {p.lo != null && p.hi != null ? (
            <span className="text-neutral-500">
              {" "}
              [{num(p.lo, 0)}, {num(p.hi, 0)}]
            </span>
          ) : null}
        </div>
      </div>
    );
  }

  return (
    <ChartFrame
      title={title}
      description={usable.map((p) => `${p.label}: ${p.paramsB}B, H0.5 ${p.censored ? "at least " : ""}${p.h50}`).join("; ")}
      legend={<ChartLegend entries={legend} />}
      testId="horizon-vs-size-chart"
    >
      <div style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <ScatterChart margin={{ top: 8, right: 16, bottom: 20, left: 4 }}>
            <CartesianGrid stroke={AXIS.grid} strokeDasharray="3 3" />
            <XAxis
              dataKey="paramsB"
              type="number"
              scale="log"
              domain={[xLo, xHi]}
              ticks={logTicks(xLo, xHi)}
              tickFormatter={(v: number) => `${v >= 1 ? Math.round(v) : v}B`}
              stroke={AXIS.stroke}
              tick={AXIS.tick}
              label={{ value: "Parameters (billions, log scale)", position: "insideBottom", offset: -12, ...AXIS.label }}
            />
            <YAxis
              dataKey="h50"
              type="number"
              scale={logY ? "log" : "linear"}
              domain={logY ? ["auto", "auto"] : [0, yHi]}
              tickFormatter={(v: number) => String(Math.round(v))}
              stroke={AXIS.stroke}
              tick={AXIS.tick}
              width={58}
              label={{ value: "H₀.₅ (steps)", angle: -90, position: "insideLeft", offset: 2, ...AXIS.label }}
            />
            <Tooltip content={Tip} cursor={{ strokeDasharray: "3 3" }} />
            {groups.map((data, i) => (
              <Scatter
                key={families[i]}
                name={names[i]}
                data={data}
                dataKey="h50"
                fill={seriesColor(colorAt(i))}
                isAnimationActive={false}
                shape={(props: ScatterShapeProps) => {
                  const p = props.payload as Row;
                  return (
                    <SeriesDot
                      cx={props.cx}
                      cy={props.cy}
                      color={seriesColor(colorAt(i))}
                      symbol={seriesSymbol(colorAt(i))}
                      hollow={p.censored}
                      size={72}
                      href={p.href}
                      label={`${p.label}: H0.5 ${p.censored ? "≥ " : ""}${num(p.h50, 0)} steps — open run`}
                    />
                  );
                }}
              >
                <ErrorBar
                  dataKey="err"
                  direction="y"
                  width={4}
                  stroke={seriesColor(colorAt(i))}
                  strokeWidth={1.2}
                  isAnimationActive={false}
                />
              </Scatter>
            ))}
          </ScatterChart>
        </ResponsiveContainer>
      </div>
    </ChartFrame>
  );
}
