"use client";

import { fmtLength, lengthAxisLabel, type LengthUnits } from "@/lib/analysis/length-unit";
import type { AccuracyAtLength } from "@/lib/analysis/types";
import { Axes, ChartFrame, EmptyChart, HoverColumns } from "./chart-frame";
import type { LegendEntry } from "./chart-legend";
import { CHART, DASH, TOKEN, pct } from "./config";
import { bandPath, fillHref, linePath, linearTicks, logTicks, scale, thinTicks } from "./geometry";
import { ErrorBar, Mark } from "./marks";
import type { SeriesStyle } from "./palette";

export interface AccuracySeries {
  /** run key (identity only; not shown) */
  key: string;
  /** shown as text (model or run name) */
  label: string;
  style: SeriesStyle;
  points: AccuracyAtLength[];
  /** where a click on a point goes: a template with `{length}` (run key already encoded) */
  itemsHref?: string | null;
}

export interface AccuracyByLengthChartProps {
  series: AccuracySeries[];
  answer?: "first" | "last" | "both";
  xScale?: "linear" | "log";
  /** Wilson 95% bands (default on) */
  bands?: boolean;
  height?: number;
  title?: string;
  /** what a length counts (lib/analysis/length-unit): steps, METR minutes, or mixed */
  unit?: LengthUnits;
}

type Kind = "first" | "last";
const value = (p: AccuracyAtLength, k: Kind) => (k === "first" ? p.first_accuracy : p.last_accuracy);
const interval = (p: AccuracyAtLength, k: Kind) => (k === "first" ? p.first_ci : p.last_ci);

export function AccuracyByLengthChart({
  series,
  answer = "first",
  xScale = "linear",
  bands = true,
  height = 320,
  title,
  unit = "steps",
}: AccuracyByLengthChartProps) {
  const lengths = [...new Set(series.flatMap((s) => s.points.map((p) => p.length)))].sort((a, b) => a - b);
  if (lengths.length === 0) return <EmptyChart message="No accuracy-by-length data." height={height} testId="accuracy-by-length-chart" />;
  const lo = lengths[0];
  const hi = lengths[lengths.length - 1];
  const log = xScale === "log" && lo > 0;
  const kinds: Kind[] = answer === "both" ? ["first", "last"] : [answer];
  const sorted = series.map((s) => ({ ...s, points: [...s.points].sort((a, b) => a.length - b.length) }));

  const legend: LegendEntry[] = sorted.map((s) => ({ label: s.label, color: s.style.color, marker: s.style.marker }));
  if (kinds.includes("first")) legend.push({ label: "first answer", color: TOKEN.muted, dash: DASH.solid });
  if (kinds.includes("last")) legend.push({ label: "last answer", color: TOKEN.muted, dash: DASH.last, marker: "circle", hollow: true });
  if (bands) legend.push({ label: "95% Wilson interval", color: TOKEN.muted, swatch: "band" });

  const tips = lengths.map((L) =>
    [
      `Length ${fmtLength(L, unit)}`,
      ...sorted.flatMap((s) => {
        const p = s.points.find((q) => q.length === L);
        if (!p) return [];
        return kinds.map((k) => {
          const ci = interval(p, k);
          return `${s.label}${kinds.length > 1 ? ` (${k})` : ""}: ${pct(value(p, k), 1)} [${pct(ci?.[0])}, ${pct(ci?.[1])}] n=${p.n}`;
        });
      }),
    ].join("\n"),
  );
  const describe = sorted
    .map(
      (s) =>
        `${s.label}: ` +
        s.points.map((p) => `${fmtLength(p.length, unit)} ${pct(answer === "last" ? p.last_accuracy : p.first_accuracy)}`).join(", "),
    )
    .join("; ");

  return (
    <ChartFrame
      name="Accuracy by length"
      title={title}
      description={describe}
      legend={legend}
      height={height}
      testId="accuracy-by-length-chart"
      columnTips={tips}
      draw={(plot) => {
        const pad = log ? 0 : (hi - lo) * 0.04 || 1;
        const x = scale(log ? [lo, hi] : [Math.max(0, lo - pad), hi + pad], [plot.left, plot.right], log);
        const y = scale([0, 1], [plot.bottom, plot.top]);
        const maxTicks = plot.narrow ? 6 : 12;
        const xTicks = thinTicks(lengths.length <= maxTicks ? lengths : log ? logTicks(lo, hi) : linearTicks(lo, hi, maxTicks), maxTicks);
        return (
          <>
            <Axes
              plot={plot}
              x={{
                scale: x,
                ticks: xTicks,
                format: (v) => String(Math.round(v * 100) / 100),
                label: lengthAxisLabel(unit, log),
              }}
              y={{ scale: y, ticks: [0, 0.25, 0.5, 0.75, 1], format: (v) => pct(v), label: "Accuracy" }}
            />
            <HoverColumns plot={plot} xs={lengths.map(x)} />
            {bands
              ? sorted.flatMap((s) =>
                  kinds.map((k) => {
                    const pts = s.points.filter((p) => interval(p, k));
                    // a band needs two lengths: a run of one length (a self-conditioning sweep) gets a bar with caps
                    if (pts.length === 1)
                      return (
                        <g key={`band-${s.key}-${k}`} data-interval={k}>
                          <ErrorBar
                            x={x(pts[0].length)}
                            y0={y(interval(pts[0], k)![0])}
                            y1={y(interval(pts[0], k)![1])}
                            color={s.style.color}
                          />
                        </g>
                      );
                    return (
                      <path
                        key={`band-${s.key}-${k}`}
                        d={bandPath(
                          pts.map((p) => x(p.length)),
                          pts.map((p) => y(interval(p, k)![1])),
                          pts.map((p) => y(interval(p, k)![0])),
                        )}
                        fill={s.style.color}
                        fillOpacity={kinds.length > 1 ? 0.08 : 0.14}
                        pointerEvents="none"
                      />
                    );
                  }),
                )
              : null}
            {sorted.flatMap((s) =>
              kinds.map((k) => (
                <path
                  key={`line-${s.key}-${k}`}
                  d={linePath(s.points.map((p) => [x(p.length), y(value(p, k))]))}
                  fill="none"
                  stroke={s.style.color}
                  strokeWidth={2}
                  strokeDasharray={k === "last" ? DASH.last : undefined}
                  pointerEvents="none"
                  data-series={s.key}
                />
              )),
            )}
            {/* last answers' hollow marks first and a little larger, so that where the two answers
                agree the first answer's filled mark shows inside the ring instead of under it */}
            {sorted.flatMap((s) =>
              [...kinds]
                .reverse()
                .flatMap((k) =>
                  s.points.map((p) => (
                    <Mark
                      key={`m-${s.key}-${k}-${p.length}`}
                      cx={x(p.length)}
                      cy={y(value(p, k))}
                      color={s.style.color}
                      marker={s.style.marker}
                      hollow={k === "last"}
                      r={k === "last" && kinds.length > 1 ? CHART.markerRadius + 2 : undefined}
                      href={s.itemsHref ? fillHref(s.itemsHref, { length: p.length }) : null}
                      tip={`${s.label}, length ${fmtLength(p.length, unit)}: ${k} answer ${pct(value(p, k), 1)} [${pct(interval(p, k)?.[0])}, ${pct(interval(p, k)?.[1])}], n=${p.n}${s.itemsHref ? " — open items" : ""}`}
                    />
                  )),
                ),
            )}
          </>
        );
      }}
    />
  );
}
