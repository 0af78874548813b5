"use client";

import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type DotItemDotProps,
  type TooltipContentProps,
} from "recharts";
import type { AccuracyAtLength } from "@/lib/analysis/types";
import { fmtLength, lengthAxisLabel, type LengthUnits } from "@/lib/analysis/length-unit";
import { ChartFrame, EmptyChart } from "./chart-frame";
import { ChartLegend, type LegendEntry } from "./chart-legend";
import { SeriesDot } from "./series-dot";
import { AXIS, DASH, fillHref, linearTicks, logTicks, pct, seriesColor, seriesSymbol } from "./theme";
import { CHART_DEFAULTS } from "./defaults";

export interface AccuracySeries {
  /** run key (identity only; not shown) */
  key: string;
  /** shown as text (model or run name) */
  label: string;
  points: AccuracyAtLength[];
  /**
   * Where a click on a point goes: a template with `{length}`, e.g.
   * `/runs/KEY?tab=items&lenMin={length}&lenMax={length}` (KEY already encoded).
   */
  itemsHref?: string | null;
}

export interface AccuracyByLengthChartProps {
  series: AccuracySeries[];
  answer?: "first" | "last" | "both";
  xScale?: "linear" | "log";
  /** what a length counts (lib/analysis/length-unit): steps, METR minutes, or mixed */
  unit?: LengthUnits;
  /** Wilson 95% bands (default on) */
  bands?: boolean;
  height?: number;
  title?: string;
}

type Row = Record<string, number | [number, number] | undefined> & { length: number };

function buildRows(series: AccuracySeries[]): Row[] {
  const rows = new Map<number, Row>();
  series.forEach((s, i) => {
    for (const p of s.points) {
      const row = rows.get(p.length) ?? { length: p.length };
      row[`f${i}`] = p.first_accuracy;
      row[`fb${i}`] = p.first_ci;
      row[`l${i}`] = p.last_accuracy;
      row[`lb${i}`] = p.last_ci;
      row[`n${i}`] = p.n;
      rows.set(p.length, row);
    }
  });
  return [...rows.values()].sort((a, b) => a.length - b.length);
}

export function AccuracyByLengthChart({
  series,
  answer = "first",
  xScale = "linear",
  bands = true,
  unit = "steps",
  height = CHART_DEFAULTS.accuracyByLength.height,
  title = CHART_DEFAULTS.accuracyByLength.title,
}: AccuracyByLengthChartProps) {
  const rows = buildRows(series);
  if (rows.length === 0)
    return (
      <ChartFrame title={title}>
        <EmptyChart message="No accuracy-by-length data." height={height} />
      </ChartFrame>
    );
  const lengths = rows.map((r) => r.length);
  const lo = lengths[0];
  const hi = lengths[lengths.length - 1];
  const log = xScale === "log" && lo > 0;
  const ticks = lengths.length <= 12 ? lengths : log ? logTicks(lo, hi) : linearTicks(lo, hi);
  const kinds = (answer === "both" ? ["first", "last"] : [answer]) as ("first" | "last")[];

  const legend: LegendEntry[] = [];
  series.forEach((s, i) => legend.push({ label: s.label, color: seriesColor(i), symbol: seriesSymbol(i) }));
  if (kinds.includes("first")) legend.push({ label: "first answer", color: "#525252", dash: DASH.solid });
  if (kinds.includes("last")) legend.push({ label: "last answer", color: "#525252", dash: DASH.last, symbol: "circle", hollow: true });
  if (bands) legend.push({ label: "95% Wilson interval", color: "#525252", swatch: "band" });

  const describe = series
    .map(
      (s) =>
        `${s.label}: ` +
        s.points.map((p) => `${fmtLength(p.length, unit)} ${pct(answer === "last" ? p.last_accuracy : p.first_accuracy)}`).join(", "),
    )
    .join("; ");

  function Tip({ active, payload }: TooltipContentProps) {
    const row = payload?.[0]?.payload as Row | undefined;
    if (!active || !row) return null;
    return (
      <div className="rounded-md border border-neutral-200 bg-white px-3 py-2 text-xs shadow-md">
        <div className="mb-1 font-semibold text-neutral-800">Length {fmtLength(row.length, unit)}</div>
        <table className="tabular">
          <tbody>
            {series.map((s, i) =>
              row[`n${i}`] == null ? null : (
                <tr key={s.key}>
                  <td className="max-w-48 truncate pr-3" style={{ color: seriesColor(i) }}>
                    {s.label}
                  </td>
                  {kinds.map((k) => {
                    const ci = row[`${k === "first" ? "fb" : "lb"}${i}`] as [number, number];
                    return (
                      <td key={k} className="pr-3 text-right text-neutral-800">
                        {k === "last" && kinds.length > 1 ? "last " : ""}
                        {pct(row[`${k[0]}${i}`] as number, 1)}{" "}
                        <span className="text-neutral-500">
                          [{pct(ci[0])}, {pct(ci[1])}]
                        </span>
                      </td>
                    );
                  })}
                  <td className="text-right text-neutral-500">n={row[`n${i}`] as number}</td>
                </tr>
              ),
            )}
          </tbody>
        </table>
        {series.some((s) => s.itemsHref) ? <div className="mt-1 text-neutral-500">Click a point to open its items</div> : null}
      </div>
    );
  }

  return (
    <ChartFrame title={title} description={describe} legend={<ChartLegend entries={legend} />} testId="accuracy-by-length-chart">
      <div style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={rows} margin={{ top: 8, right: 16, bottom: 20, left: 4 }}>
            <CartesianGrid stroke={AXIS.grid} strokeDasharray="3 3" />
            <XAxis
              dataKey="length"
              type="number"
              scale={log ? "log" : "linear"}
              domain={log ? [lo, hi] : [Math.max(0, lo - (hi - lo) * 0.05), hi + (hi - lo) * 0.05 || hi + 1]}
              ticks={ticks}
              allowDataOverflow={false}
              stroke={AXIS.stroke}
              tick={AXIS.tick}
              tickFormatter={(v: number) => String(Math.round(v * 100) / 100)}
              label={{ value: lengthAxisLabel(unit, log), position: "insideBottom", offset: -12, ...AXIS.label }}
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
            {bands
              ? series.flatMap((s, i) =>
                  kinds.map((k) => (
                    <Area
                      key={`band-${k}-${i}`}
                      dataKey={`${k === "first" ? "fb" : "lb"}${i}`}
                      stroke="none"
                      fill={seriesColor(i)}
                      fillOpacity={kinds.length > 1 ? 0.08 : 0.13}
                      isAnimationActive={false}
                      activeDot={false}
                      connectNulls
                      legendType="none"
                      tooltipType="none"
                    />
                  )),
                )
              : null}
            {series.flatMap((s, i) =>
              kinds.map((k) => (
                <Line
                  key={`line-${k}-${i}`}
                  dataKey={`${k[0]}${i}`}
                  name={`${s.label} (${k} answer)`}
                  stroke={seriesColor(i)}
                  strokeWidth={2}
                  strokeDasharray={k === "last" ? DASH.last : undefined}
                  connectNulls
                  isAnimationActive={false}
                  activeDot={false}
                  dot={(p: DotItemDotProps) => {
                    const row = p.payload as Row;
                    const href = s.itemsHref ? fillHref(s.itemsHref, { length: row.length }) : null;
                    return (
                      <SeriesDot
                        key={`${k}-${i}-${p.index}`}
                        cx={p.cx}
                        cy={p.cy}
                        color={seriesColor(i)}
                        symbol={seriesSymbol(i)}
                        hollow={k === "last"}
                        href={href}
                        label={`${s.label}, length ${fmtLength(row.length, unit)}: ${k} answer ${pct(p.value as number, 1)} — open items`}
                      />
                    );
                  }}
                />
              )),
            )}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </ChartFrame>
  );
}
