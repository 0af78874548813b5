"use client";

import { useRouter } from "next/navigation";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { ChartFrame, EmptyChart } from "./chart-frame";
import { AXIS, fillHref } from "./theme";
import { CHART_DEFAULTS } from "./defaults";

export interface FirstDivergenceHistogramProps {
  bins: { step: number; count: number }[];
  /** longest reference length, so the axis shows where divergences did not happen */
  maxLength?: number | null;
  /** template with `{step}` (and `{stepMax}` for binned bars): a click opens those items */
  itemsHref?: string | null;
  height?: number;
  title?: string;
}

const MAX_BARS = 100;

interface Row {
  from: number;
  to: number;
  count: number;
  label: string;
}

function binRows(bins: { step: number; count: number }[], maxStep: number): Row[] {
  const width = Math.max(1, Math.ceil(maxStep / MAX_BARS));
  const rows: Row[] = [];
  for (let from = 1; from <= maxStep; from += width) {
    const to = Math.min(maxStep, from + width - 1);
    rows.push({ from, to, count: 0, label: from === to ? String(from) : `${from}–${to}` });
  }
  for (const b of bins) {
    const idx = Math.floor((b.step - 1) / width);
    if (rows[idx]) rows[idx].count += b.count;
  }
  return rows;
}

export function FirstDivergenceHistogram({
  bins,
  maxLength,
  itemsHref,
  height = CHART_DEFAULTS.firstDivergence.height,
  title = CHART_DEFAULTS.firstDivergence.title,
}: FirstDivergenceHistogramProps) {
  const router = useRouter();
  const total = bins.reduce((a, b) => a + b.count, 0);
  if (total === 0)
    return (
      <ChartFrame title={title}>
        <EmptyChart message="No generation diverged from the reference." height={height} />
      </ChartFrame>
    );
  const maxStep = Math.max(maxLength ?? 0, ...bins.map((b) => b.step));
  const rows = binRows(bins, maxStep);
  const binned = rows.some((r) => r.to > r.from);
  const top = [...bins].sort((a, b) => b.count - a.count).slice(0, 5);
  const describe = `${total} generations diverged; most often at step ${top.map((b) => `${b.step} (${b.count})`).join(", ")}`;

  function Tip({ active, payload }: TooltipContentProps) {
    const row = payload?.[0]?.payload as Row | undefined;
    if (!active || !row) return null;
    return (
      <div className="rounded-md border border-neutral-200 bg-white px-3 py-2 text-xs shadow-md tabular">
        <div className="font-semibold text-neutral-800">{row.from === row.to ? `Step ${row.from}` : `Steps ${row.label}`}</div>
        <div>
          {row.count} generation{row.count === 1 ? "" : "s"} ({((row.count / total) * 100).toFixed(1)}%)
        </div>
        {itemsHref && row.count > 0 ? <div className="text-neutral-500">Click to open these items</div> : null}
      </div>
    );
  }

  return (
    <ChartFrame title={title} description={describe} testId="first-divergence-histogram">
      <div style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 20, left: 4 }} barCategoryGap={1}>
            <CartesianGrid stroke={AXIS.grid} strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="label"
              stroke={AXIS.stroke}
              tick={AXIS.tick}
              interval="preserveStartEnd"
              minTickGap={12}
              label={{
                value: `Step of first divergence${binned ? " (binned)" : ""}`,
                position: "insideBottom",
                offset: -12,
                ...AXIS.label,
              }}
            />
            <YAxis
              allowDecimals={false}
              stroke={AXIS.stroke}
              tick={AXIS.tick}
              width={40}
              label={{ value: "Generations", angle: -90, position: "insideLeft", offset: 2, dy: 40, ...AXIS.label }}
            />
            <Tooltip content={Tip} cursor={{ fill: "#f5f5f5" }} />
            <Bar
              dataKey="count"
              name="Generations"
              fill="#525252"
              radius={[2, 2, 0, 0]}
              isAnimationActive={false}
              cursor={itemsHref ? "pointer" : undefined}
              onClick={
                itemsHref
                  ? (entry: { payload?: Row }) => {
                      const r = entry?.payload;
                      if (r && r.count > 0) router.push(fillHref(itemsHref, { step: r.from, stepMax: r.to }));
                    }
                  : undefined
              }
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </ChartFrame>
  );
}
