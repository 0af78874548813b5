"use client";

import {
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from "recharts";
import type { CurvePoint, Horizon } from "@/lib/analysis/types";
import { ChartFrame, EmptyChart } from "./chart-frame";
import { ChartLegend, type LegendEntry } from "./chart-legend";
import { AXIS, DASH, linearTicks, logTicks, pct, seriesColor } from "./theme";
import { CHART_DEFAULTS } from "./defaults";

export interface StepCurveSeries {
  key: string;
  label: string;
  /** observed task accuracy a(i) */
  task: CurvePoint[] | null;
  /** observed step accuracy s(i) */
  step: CurvePoint[] | null;
  /** p̂^i prediction (RunExtras.predicted_task_accuracy) */
  predicted: CurvePoint[] | null;
  horizon?: Horizon | null;
  horizon80?: Horizon | null;
}

export interface StepCurvesChartProps {
  series: StepCurveSeries[];
  show?: { task?: boolean; step?: boolean; predicted?: boolean };
  xScale?: "linear" | "log";
  height?: number;
  title?: string;
}

const KINDS = [
  { id: "task", prefix: "t", label: "task accuracy a(i)", dash: DASH.solid, width: 2 },
  { id: "step", prefix: "s", label: "step accuracy s(i)", dash: DASH.step, width: 2 },
  { id: "predicted", prefix: "p", label: "predicted p̂^i", dash: DASH.predicted, width: 1.5 },
] as const;
type KindId = (typeof KINDS)[number]["id"];

const MAX_ROWS = 400;
type Row = Record<string, number | undefined> & { step: number };

function buildRows(series: StepCurveSeries[], kinds: KindId[]): Row[] {
  const rows = new Map<number, Row>();
  series.forEach((s, i) => {
    for (const k of KINDS) {
      if (!kinds.includes(k.id)) continue;
      for (const p of s[k.id] ?? []) {
        const row = rows.get(p.step) ?? { step: p.step };
        row[`${k.prefix}${i}`] = p.accuracy;
        if (k.id === "task") row[`n${i}`] = p.n;
        rows.set(p.step, row);
      }
    }
  });
  const all = [...rows.values()].sort((a, b) => a.step - b.step);
  if (all.length <= MAX_ROWS) return all;
  // Thin long curves evenly (keeping both ends); the lines stay smooth at chart resolution.
  const every = Math.ceil(all.length / MAX_ROWS);
  return all.filter((_, j) => j % every === 0 || j === all.length - 1);
}

function horizonText(h: Horizon): string {
  return `${h.censored ? "≥ " : ""}${h.steps}`;
}

export function StepCurvesChart({
  series,
  show,
  xScale = "linear",
  height = CHART_DEFAULTS.stepCurves.height,
  title = CHART_DEFAULTS.stepCurves.title,
}: StepCurvesChartProps) {
  const kinds = KINDS.filter((k) => show?.[k.id] ?? true).map((k) => k.id);
  const rows = buildRows(series, kinds);
  if (rows.length === 0)
    return (
      <ChartFrame title={title}>
        <EmptyChart message="No step-level curves for these runs." height={height} />
      </ChartFrame>
    );
  const lo = rows[0].step;
  const hi = rows[rows.length - 1].step;
  const log = xScale === "log";
  const labelHorizons = series.length === 1;

  const legend: LegendEntry[] = series.map((s, i) => ({ label: s.label, color: seriesColor(i), swatch: "bar" as const }));
  for (const k of KINDS) if (kinds.includes(k.id)) legend.push({ label: k.label, color: "#525252", dash: k.dash });
  legend.push({ label: "horizon H₀.₅ (vertical)", color: "#737373", dash: DASH.marker });
  legend.push({ label: "horizon H₀.₈ (vertical)", color: "#737373", dash: "1 3" });

  const describe = series
    .map(
      (s) =>
        `${s.label}: horizon H0.5 ${s.horizon ? horizonText(s.horizon) : "n/a"} steps, H0.8 ${s.horizon80 ? horizonText(s.horizon80) : "n/a"} steps`,
    )
    .join("; ");

  function Tip({ active, payload }: TooltipContentProps) {
    const row = payload?.[0]?.payload as Row | undefined;
    if (!active || !row) return null;
    return (
      <div className="rounded-md border border-neutral-200 bg-white px-3 py-2 text-xs shadow-md">
        <div className="mb-1 font-semibold text-neutral-800">Step {row.step}</div>
        <table className="tabular">
          <thead>
            <tr className="text-neutral-500">
              <th />
              {KINDS.filter((k) => kinds.includes(k.id)).map((k) => (
                <th key={k.id} className="px-2 text-right font-normal">
                  {k.id === "predicted" ? "p̂^i" : k.id === "task" ? "a(i)" : "s(i)"}
                </th>
              ))}
              <th className="text-right font-normal">n</th>
            </tr>
          </thead>
          <tbody>
            {series.map((s, i) => (
              <tr key={s.key}>
                <td className="max-w-48 truncate pr-2" style={{ color: seriesColor(i) }}>
                  {s.label}
                </td>
                {KINDS.filter((k) => kinds.includes(k.id)).map((k) => (
                  <td key={k.id} className="px-2 text-right text-neutral-800">
                    {pct(row[`${k.prefix}${i}`], 1)}
                  </td>
                ))}
                <td className="text-right text-neutral-500">{row[`n${i}`] ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }

  return (
    <ChartFrame title={title} description={describe} legend={<ChartLegend entries={legend} />} testId="step-curves-chart">
      <div style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={rows} margin={{ top: 18, right: 16, bottom: 20, left: 4 }}>
            <CartesianGrid stroke={AXIS.grid} strokeDasharray="3 3" />
            <XAxis
              dataKey="step"
              type="number"
              scale={log ? "log" : "linear"}
              domain={log ? [Math.max(1, lo), hi] : [lo, hi]}
              ticks={log ? logTicks(Math.max(1, lo), hi) : linearTicks(lo, hi)}
              stroke={AXIS.stroke}
              tick={AXIS.tick}
              label={{ value: `Step i${log ? " (log scale)" : ""}`, position: "insideBottom", offset: -12, ...AXIS.label }}
            />
            <YAxis
              domain={[0, 1]}
              ticks={[0, 0.25, 0.5, 0.75, 1]}
              tickFormatter={(v: number) => pct(v)}
              stroke={AXIS.stroke}
              tick={AXIS.tick}
              width={58}
              label={{ value: "Accuracy", angle: -90, position: "insideLeft", offset: 2, ...AXIS.label }}
            />
            <Tooltip content={Tip} />
            <ReferenceLine
              y={0.5}
              stroke="#a3a3a3"
              strokeDasharray={DASH.marker}
              label={{ value: "s = 0.5", position: "insideTopRight", fontSize: 11, fill: "#737373" }}
            />
            <ReferenceLine
              y={0.8}
              stroke="#a3a3a3"
              strokeDasharray={DASH.marker}
              label={{ value: "s = 0.8", position: "insideTopRight", fontSize: 11, fill: "#737373" }}
            />
            {series.flatMap((s, i) =>
              (
                [
                  [s.horizon, "H₀.₅"],
                  [s.horizon80, "H₀.₈"],
                ] as const
              ).map(([h, name]) =>
                h && h.steps >= (log ? 1 : 0) && h.steps >= lo && h.steps <= hi ? (
                  <ReferenceLine
                    key={`h-${name}-${i}`}
                    x={h.steps}
                    stroke={seriesColor(i)}
                    strokeDasharray={name === "H₀.₅" ? DASH.marker : "1 3"}
                    strokeOpacity={0.8}
                    label={
                      labelHorizons
                        ? { value: `${name} ${horizonText(h)}`, position: "top", fontSize: 11, fill: seriesColor(i) }
                        : undefined
                    }
                  />
                ) : null,
              ),
            )}
            {series.flatMap((s, i) =>
              KINDS.filter((k) => kinds.includes(k.id)).map((k) => (
                <Line
                  key={`${k.id}-${i}`}
                  type="linear"
                  dataKey={`${k.prefix}${i}`}
                  name={`${s.label} — ${k.label}`}
                  stroke={seriesColor(i)}
                  strokeWidth={k.width}
                  strokeDasharray={k.dash}
                  strokeOpacity={k.id === "predicted" ? 0.85 : k.id === "step" ? 0.6 : 1}
                  dot={false}
                  activeDot={{ r: 3 }}
                  connectNulls
                  isAnimationActive={false}
                />
              )),
            )}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </ChartFrame>
  );
}
