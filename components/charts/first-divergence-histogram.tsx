"use client";

import { Axes, ChartFrame, EmptyChart } from "./chart-frame";
import { TOKEN } from "./config";
import { fillHref, linearTicks, scale } from "./geometry";

export interface FirstDivergenceHistogramProps {
  bins: { step: number; count: number }[];
  /** longest reference length, so the axis shows where divergences did not happen */
  maxLength?: number | null;
  /** template with `{step}` and `{stepMax}`: a click on a bar opens those items */
  itemsHref?: string | null;
  height?: number;
  title?: string;
}

const MAX_BARS = 100;

interface Bin {
  from: number;
  to: number;
  count: number;
}

export function binRows(bins: { step: number; count: number }[], maxStep: number, maxBars = MAX_BARS): Bin[] {
  const width = Math.max(1, Math.ceil(maxStep / maxBars));
  const rows: Bin[] = [];
  for (let from = 1; from <= maxStep; from += width) rows.push({ from, to: Math.min(maxStep, from + width - 1), count: 0 });
  for (const b of bins) {
    const row = rows[Math.floor((b.step - 1) / width)];
    if (row) row.count += b.count;
  }
  return rows;
}

export function FirstDivergenceHistogram({ bins, maxLength, itemsHref, height = 240, title }: FirstDivergenceHistogramProps) {
  const total = bins.reduce((a, b) => a + b.count, 0);
  if (total === 0)
    return <EmptyChart message="No generation diverged from the reference." height={height} testId="first-divergence-histogram" />;
  const maxStep = Math.max(maxLength ?? 0, ...bins.map((b) => b.step));
  const top = [...bins].sort((a, b) => b.count - a.count).slice(0, 5);
  const describe = `${total} generations diverged; most often at step ${top.map((b) => `${b.step} (${b.count})`).join(", ")}`;

  return (
    <ChartFrame
      name="First divergence"
      title={title}
      description={describe}
      height={height}
      testId="first-divergence-histogram"
      draw={(plot) => {
        const rows = binRows(bins, maxStep, plot.narrow ? 40 : MAX_BARS);
        const binned = rows.some((r) => r.to > r.from);
        const yMax = Math.max(1, ...rows.map((r) => r.count));
        const x = scale([0.5, maxStep + 0.5], [plot.left, plot.right]);
        const y = scale([0, yMax], [plot.bottom, plot.top]);
        const yTicks = linearTicks(0, yMax, 4).filter((t) => Number.isInteger(t));
        const xTicks = linearTicks(1, maxStep, plot.narrow ? 5 : 10).filter((t) => Number.isInteger(t) && t >= 1);
        return (
          <>
            <Axes
              plot={plot}
              xGrid={false}
              x={{ scale: x, ticks: xTicks, label: `Step of first divergence${binned ? " (binned)" : ""}` }}
              y={{ scale: y, ticks: yTicks, label: "Generations" }}
            />
            {rows.map((r) => {
              if (r.count === 0) return null;
              const x0 = x(r.from - 0.5);
              const w = Math.max(1, x(r.to + 0.5) - x0 - 1);
              const range = r.from === r.to ? `Step ${r.from}` : `Steps ${r.from}–${r.to}`;
              const tip = `${range}: ${r.count} generation${r.count === 1 ? "" : "s"} (${((r.count / total) * 100).toFixed(1)}%)${itemsHref ? " — open items" : ""}`;
              const bar = <rect x={x0 + 0.5} y={y(r.count)} width={w} height={plot.bottom - y(r.count)} fill={TOKEN.bar} rx={1} />;
              return itemsHref ? (
                <a key={r.from} href={fillHref(itemsHref, { step: r.from, stepMax: r.to })} aria-label={tip} className="chart-link">
                  {bar}
                </a>
              ) : (
                <g key={r.from} data-tip={tip}>
                  {bar}
                </g>
              );
            })}
          </>
        );
      }}
    />
  );
}
