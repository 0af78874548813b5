"use client";

import { Axes, ChartFrame, EmptyChart, type Plot } from "@/components/charts/chart-frame";
import { ChartLegend, type LegendEntry } from "@/components/charts/chart-legend";
import { DASH, TOKEN } from "@/components/charts/config";
import { linePath, linearTicks, scale } from "@/components/charts/geometry";
import { ErrorBar, Mark } from "@/components/charts/marks";
import { styleOfSlot } from "@/components/charts/palette";
import { FACTOR_LABELS, isFractionMetric, metricLabel } from "@/lib/study/definitions";
import type { FactorValue, StudyPoint } from "@/lib/study/pivot";
import type { StudyParams } from "@/lib/url/study";

// The study chart on the shared chart frame: one line per series, 95% intervals as error bars,
// every point a link to the items behind it. Series are styled by their place in the study's
// own order (models sorted by name), so a series keeps its style across metrics and presets.
// A client component rendered on the server, as the other charts: its links come computed
// (each point's `href`) so the route's URL schema stays out of the browser's bundle.

/** A series as the chart draws it: each point with where it leads (cellHref), not the runs behind it. */
export interface StudyChartSeries {
  name: string;
  points: (Pick<StudyPoint, "x" | "value" | "ci" | "n" | "censored"> & { href: string })[];
}

export function StudyChart({ p, data, legend }: { p: StudyParams; data: StudyChartSeries[]; legend: string }) {
  const points = data.flatMap((s) => s.points);
  if (points.length === 0) return <EmptyChart message="No runs match: nothing to draw." testId="study-chart" />;
  const xs = [...new Map(points.map((pt) => [String(pt.x), pt.x])).values()];
  const numeric = xs.every((x) => typeof x === "number");
  // model sizes span 1–1,000 B: on a linear axis the small ones sit on top of each other
  const log = numeric && p.x === "size" && xs.every((x) => (x as number) > 0);
  const order = xs.map(String);
  const position = (x: FactorValue) => (numeric ? (x as number) : order.indexOf(String(x)));
  const nums = xs.map(position);
  const [x0, x1] = numeric ? [Math.min(...nums), Math.max(...nums)] : [-0.5, xs.length - 0.5];
  const fraction = isFractionMetric(p.metric);
  const yMax = fraction ? 1 : Math.max(1, ...points.map((pt) => Math.max(pt.value ?? 0, pt.ci?.[1] ?? 0))) * 1.05;
  const fmt = (v: number) => (fraction ? `${Math.round(v * 100)}%` : v.toFixed(0));
  const styles = data.map((_, i) => ({ ...styleOfSlot(i), dash: i % 2 ? DASH.last : DASH.solid }));
  const entries: LegendEntry[] = data.map((s, i) => ({
    label: s.name,
    color: styles[i].color,
    marker: styles[i].marker,
    dash: styles[i].dash,
  }));
  if (points.some((pt) => pt.censored))
    entries.push({ label: "hollow: a lower bound (a run behind it is censored, ≥)", color: TOKEN.muted, marker: "circle", hollow: true });

  const draw = (plot: Plot) => {
    const domain: [number, number] = x0 !== x1 ? [x0, x1] : log ? [x0 / 2, x1 * 2] : [x0 - 1, x1 + 1];
    const fx = scale(domain, [plot.left + 8, plot.right - 8], log);
    const fy = scale([0, yMax], [plot.bottom, plot.top]);
    // ticks at least 24 px apart, so close values (4 and 5 steps) do not print over each other
    const tickXs: number[] = [];
    const tickLabels: string[] = [];
    for (const x of xs) {
      const at = position(x);
      if (tickXs.length && fx(at) - fx(tickXs[tickXs.length - 1]) < 24) continue;
      tickXs.push(at);
      tickLabels.push(String(x));
    }
    return (
      <>
        <Axes
          plot={plot}
          x={{ scale: fx, ticks: tickXs, labels: tickLabels, label: log ? `${FACTOR_LABELS[p.x]}, log scale` : FACTOR_LABELS[p.x] }}
          y={{ scale: fy, ticks: fraction ? [0, 0.25, 0.5, 0.75, 1] : linearTicks(0, yMax, 5), format: fmt, label: metricLabel(p.metric) }}
          xGrid={false}
        />
        {data.map((s, i) => {
          const st = styles[i];
          const drawn = s.points.filter((pt) => pt.value !== null);
          return (
            <g key={s.name} data-series={s.name}>
              {drawn.length > 1 ? (
                <path
                  d={linePath(drawn.map((pt) => [fx(position(pt.x)), fy(pt.value!)]))}
                  fill="none"
                  stroke={st.color}
                  strokeWidth={2}
                  strokeDasharray={st.dash}
                />
              ) : null}
              {drawn.map((pt) => (
                <g key={String(pt.x)} data-testid="study-point">
                  {pt.ci ? <ErrorBar x={fx(position(pt.x))} y0={fy(pt.ci[0])} y1={fy(pt.ci[1])} color={st.color} /> : null}
                  <Mark
                    cx={fx(position(pt.x))}
                    cy={fy(pt.value!)}
                    color={st.color}
                    marker={st.marker}
                    hollow={pt.censored}
                    href={pt.href}
                    tip={`${s.name}, ${FACTOR_LABELS[p.x]} ${pt.x}: ${pt.censored ? "≥ " : ""}${fmt(pt.value!)} (n = ${pt.n})${pt.censored ? ", a lower bound: a run behind it is censored" : ""}`}
                  />
                </g>
              ))}
            </g>
          );
        })}
        <line x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} stroke={TOKEN.axis} />
      </>
    );
  };

  return (
    <ChartFrame
      name="study"
      title={`${metricLabel(p.metric)} by ${FACTOR_LABELS[p.x]}`}
      description={`${data.length} series. ${legend}`}
      testId="study-chart"
      height={320}
      legend={
        <>
          <ChartLegend entries={entries} title="Series" />
          <p className="mt-1 text-xs text-neutral-600">{legend}</p>
        </>
      }
      draw={draw}
    />
  );
}
