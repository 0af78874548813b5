"use client";

import { useRouter } from "next/navigation";
import {
  Bar,
  BarChart,
  CartesianGrid,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  pattern,
  patterns,
  type RechartsFill,
  type TooltipContentProps,
} from "recharts";
import { FAILURE_MODES, type FailureMode } from "@/lib/analysis/types";
import { ChartFrame, EmptyChart } from "./chart-frame";
import { AXIS, MODE_COLORS, MODE_LABELS, fillHref, pct } from "./theme";
import { CHART_DEFAULTS } from "./defaults";

export interface ModesAtLength {
  length: number;
  n: number;
  modes: Record<FailureMode, number>;
}

export interface FailureModesByLengthChartProps {
  rows: ModesAtLength[];
  /** template with `{length}` and `{mode}`: a click on a bar segment opens those items */
  itemsHref?: string | null;
  height?: number;
  title?: string;
}

// A texture on every other mode, so neighbouring segments differ by more than hue.
const TEXTURE: Partial<Record<FailureMode, ReturnType<typeof pattern>>> = {
  "format-error": pattern({ ...patterns.diagonal, opacity: 0.45 }),
  "self-correction": pattern({ ...patterns.crosshatch, opacity: 0.45 }),
  "extra-steps": pattern({ ...patterns.dots, opacity: 0.55 }),
  "missing-answer": pattern({ ...patterns.horizontal, opacity: 0.4 }),
};

function fillOf(mode: FailureMode): RechartsFill | string {
  const t = TEXTURE[mode];
  return t ? { color: MODE_COLORS[mode], definition: t } : MODE_COLORS[mode];
}

type Row = Record<string, number> & { length: number; n: number };

export function FailureModesByLengthChart({
  rows,
  itemsHref,
  height = CHART_DEFAULTS.failureModesByLength.height,
  title = CHART_DEFAULTS.failureModesByLength.title,
}: FailureModesByLengthChartProps) {
  const router = useRouter();
  const present = FAILURE_MODES.filter((m) => rows.some((r) => (r.modes[m] ?? 0) > 0));
  const data: Row[] = rows
    .filter((r) => r.n > 0)
    .map((r) => {
      const row: Row = { length: r.length, n: r.n };
      for (const m of present) {
        row[m] = (r.modes[m] ?? 0) / r.n;
        row[`${m}#count`] = r.modes[m] ?? 0;
      }
      return row;
    });
  if (data.length === 0 || present.length === 0)
    return (
      <ChartFrame title={title}>
        <EmptyChart message="No failure modes recorded." height={height} />
      </ChartFrame>
    );
  const top = Math.max(...data.map((r) => present.reduce((a, m) => a + r[m], 0)));
  // Round ticks: tenths up to 50%, quarters above (stacks of co-occurring modes can pass 100%).
  const tick = top <= 0.5 ? 0.1 : 0.25;
  const yMax = Math.max(tick, Math.ceil(top / tick - 1e-9) * tick);
  const yTicks = Array.from({ length: Math.round(yMax / tick) + 1 }, (_, i) => Math.round(i * tick * 100) / 100);

  function Tip({ active, payload }: TooltipContentProps) {
    const row = payload?.[0]?.payload as Row | undefined;
    if (!active || !row) return null;
    return (
      <div className="rounded-md border border-neutral-200 bg-white px-3 py-2 text-xs shadow-md">
        <div className="mb-1 font-semibold text-neutral-800">
          Length {row.length} · {row.n} generations
        </div>
        <table className="tabular">
          <tbody>
            {[...present].reverse().map((m) => (
              <tr key={m}>
                <td className="pr-3">
                  <span className="mr-1.5 inline-block h-2.5 w-2.5 rounded-sm align-middle" style={{ background: MODE_COLORS[m] }} />
                  {MODE_LABELS[m]}
                </td>
                <td className="pr-2 text-right">{row[`${m}#count`]}</td>
                <td className="text-right text-neutral-500">{pct(row[m], 1)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="mt-1 text-neutral-500">A generation can show several modes.</div>
      </div>
    );
  }

  const describe = data.map((r) => `length ${r.length}: ` + present.map((m) => `${MODE_LABELS[m]} ${pct(r[m])}`).join(", ")).join("; ");

  return (
    <ChartFrame title={title} description={describe} testId="failure-modes-by-length-chart">
      <div style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 16, bottom: 20, left: 4 }} barCategoryGap="18%">
            <CartesianGrid stroke={AXIS.grid} strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="length"
              type="category"
              stroke={AXIS.stroke}
              tick={AXIS.tick}
              label={{ value: "Length (steps)", position: "insideBottom", offset: -12, ...AXIS.label }}
            />
            <YAxis
              domain={[0, yMax]}
              ticks={yTicks}
              tickFormatter={(v: number) => pct(v)}
              stroke={AXIS.stroke}
              tick={AXIS.tick}
              width={58}
              label={{ value: "Share of generations", angle: -90, position: "insideLeft", offset: 2, dy: 60, ...AXIS.label }}
            />
            <Tooltip content={Tip} cursor={{ fill: "#f5f5f5" }} />
            {present.map((m) => (
              <Bar
                key={m}
                dataKey={m}
                name={MODE_LABELS[m]}
                stackId="modes"
                fill={fillOf(m)}
                stroke="#ffffff"
                strokeWidth={0.5}
                isAnimationActive={false}
                cursor={itemsHref ? "pointer" : undefined}
                onClick={
                  itemsHref
                    ? (entry: { payload?: Row }) => {
                        const len = entry?.payload?.length;
                        if (len != null) router.push(fillHref(itemsHref, { length: len, mode: m }));
                      }
                    : undefined
                }
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <ul aria-label="Failure modes" className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-neutral-700">
        {present.map((m) => (
          <li key={m} className="flex items-center gap-1.5">
            <svg aria-hidden="true" width="12" height="12" viewBox="0 0 12 12">
              <rect width="12" height="12" rx="2" fill={MODE_COLORS[m]} />
              {TEXTURE[m] ? <path d="M0 12L12 0M-3 3L3 -3M9 15L15 9" stroke="#fff" strokeOpacity={0.6} strokeWidth={2} /> : null}
            </svg>
            {MODE_LABELS[m]}
          </li>
        ))}
      </ul>
    </ChartFrame>
  );
}
