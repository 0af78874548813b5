import type { ReactNode } from "react";
import { ChartExportMenu } from "./chart-export-menu";
import { ChartInteractive } from "./chart-interactive";
import { ChartLegend, type LegendEntry } from "./chart-legend";
import { CHART, TOKEN } from "./config";
import { r1, type Scale } from "./geometry";

/** The drawing area of one rendering of a chart, in viewBox units. */
export interface Plot {
  /** whole viewBox */
  width: number;
  height: number;
  /** plot area edges */
  left: number;
  right: number;
  top: number;
  bottom: number;
  narrow: boolean;
  /** prefix for ids inside this rendering (patterns, clip paths) */
  id: string;
}

function plotOf(kind: "wide" | "narrow", height: number, id: string): Plot {
  const c = CHART[kind];
  const h = kind === "narrow" ? Math.round(height * CHART.narrowHeightRatio) : height;
  return {
    width: c.width,
    height: h,
    left: c.margin.left,
    right: c.width - c.margin.right,
    top: c.margin.top,
    bottom: h - c.margin.bottom,
    narrow: kind === "narrow",
    id: `${id}-${kind}`,
  };
}

/**
 * Wrapper of every chart: a titled figure with a text description for screen readers, the SVG
 * at two widths (CSS shows the one that fits; the server's HTML holds both), the leaves that add
 * tooltips, client-side links and export, and the legend (HTML, wraps on narrow screens).
 */
export function ChartFrame({
  name,
  title,
  description,
  legend,
  legendTitle,
  height,
  testId,
  draw,
  actions,
  columnTips,
}: {
  /** what the chart shows, for exports (file name and title) when there is no visible title */
  name: string;
  title?: string;
  description: string;
  legend?: LegendEntry[] | ReactNode;
  legendTitle?: string;
  height: number;
  testId: string;
  draw: (plot: Plot) => ReactNode;
  actions?: ReactNode;
  /** tooltip of each column of the drawing's HoverColumns, left to right */
  columnTips?: string[];
}) {
  const legendNode = Array.isArray(legend) ? <ChartLegend entries={legend as LegendEntry[]} title={legendTitle} /> : legend;
  return (
    <figure className="chart min-w-0" data-testid={testId}>
      {/* The header row holds the title, the chart's own controls and the export menu, so
          none of them is drawn over the plot or the legend. */}
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        {title ? <figcaption className="chart-title">{title}</figcaption> : <span />}
        <span className="flex flex-wrap items-center gap-2">
          {actions}
          <ChartExportMenu name={title || name} />
        </span>
      </div>
      <p className="sr-only">{description}</p>
      <ChartInteractive columnTips={columnTips}>
        {(["wide", "narrow"] as const).map((kind) => {
          const plot = plotOf(kind, height, testId);
          return (
            <svg
              key={kind}
              className={`chart-svg chart-${kind}`}
              viewBox={`0 0 ${plot.width} ${plot.height}`}
              width="100%"
              role="img"
              aria-label={title || description.slice(0, 120)}
              data-chart-svg={kind}
              fontSize={CHART.font.tick}
            >
              {draw(plot)}
            </svg>
          );
        })}
      </ChartInteractive>
      {legendNode ? <div className="mt-2">{legendNode}</div> : null}
    </figure>
  );
}

export function EmptyChart({ message, height = 240, testId }: { message: string; height?: number; testId?: string }) {
  return (
    <div style={{ height }} className="chart-empty" data-testid={testId}>
      {message}
    </div>
  );
}

export interface AxisSpec {
  scale: Scale;
  ticks: number[];
  format?: (v: number) => string;
  label: string;
  /** category labels drawn at the tick positions instead of formatted numbers */
  labels?: string[];
}

/** Grid lines, both axes with ticks and labels. */
export function Axes({ plot, x, y, xGrid = true }: { plot: Plot; x: AxisSpec; y: AxisSpec; xGrid?: boolean }) {
  const fx = x.format ?? String;
  const fy = y.format ?? String;
  const midX = (plot.left + plot.right) / 2;
  const midY = (plot.top + plot.bottom) / 2;
  return (
    <g className="chart-axes">
      {/* The grid and the two axis lines are one path each: every element is drawn twice (the wide
          and the narrow rendering), on the server and again while hydrating. */}
      <path
        d={[
          ...y.ticks.map((t) => `M${plot.left},${r1(y.scale(t))}H${plot.right}`),
          ...(xGrid ? x.ticks.map((t) => `M${r1(x.scale(t))},${plot.top}V${plot.bottom}`) : []),
        ].join("")}
        stroke={TOKEN.grid}
        strokeDasharray="3 3"
        fill="none"
      />
      <path d={`M${plot.left},${plot.top}V${plot.bottom}H${plot.right}`} stroke={TOKEN.axis} fill="none" />
      <g fill={TOKEN.muted} fontSize={CHART.font.tick}>
        {x.ticks.map((t, i) => (
          <text key={`tx${t}`} x={r1(x.scale(t))} y={plot.bottom + 16} textAnchor="middle">
            {x.labels?.[i] ?? fx(t)}
          </text>
        ))}
        {y.ticks.map((t, i) => (
          <text key={`ty${t}`} x={plot.left - 6} y={r1(y.scale(t) + 4)} textAnchor="end">
            {y.labels?.[i] ?? fy(t)}
          </text>
        ))}
      </g>
      <g fill={TOKEN.ink} fontSize={CHART.font.label}>
        <text x={midX} y={plot.height - 8} textAnchor="middle">
          {x.label}
        </text>
        <text x={0} y={0} transform={`translate(12 ${midY}) rotate(-90)`} textAnchor="middle">
          {y.label}
        </text>
      </g>
    </g>
  );
}

/**
 * The plot area as one invisible target whose tooltip is the column under the pointer: one column
 * per x value of a line chart, split halfway between neighbours. It carries only the boundaries;
 * the texts go once per chart to the client (ChartFrame's `columnTips`), not into every rendering.
 */
export function HoverColumns({ plot, xs }: { plot: Plot; xs: number[] }) {
  const bounds = xs.slice(1).map((x, i) => r1((xs[i] + x) / 2));
  return (
    <rect
      x={plot.left}
      y={plot.top}
      width={plot.right - plot.left}
      height={plot.bottom - plot.top}
      fill="transparent"
      data-columns={bounds.join(" ")}
    />
  );
}
