"use client";

import { FAILURE_MODES, type FailureMode } from "@/lib/analysis/types";
import { ChartFrame, EmptyChart } from "./chart-frame";
import { ChartLegend } from "./chart-legend";
import { CHART, MODE_LABELS, TOKEN, pct } from "./config";
import { fillHref } from "./geometry";

export interface ModesAtLength {
  length: number;
  n: number;
  modes: Record<FailureMode, number>;
}

export interface FailureModesByLengthChartProps {
  rows: ModesAtLength[];
  /** template with `{length}` and `{mode}`: a click on a cell opens those items */
  itemsHref?: string | null;
  height?: number;
  title?: string;
}

/** Cell opacity of a share: never fully transparent above zero, so a rare mode stays visible. */
export function heatOpacity(share: number): number {
  return share <= 0 ? 0 : 0.12 + 0.83 * Math.min(1, share);
}

/**
 * Failure modes × length as a heat map: one cell per (mode, length), its shade and number the share
 * of that length's generations showing the mode. Modes overlap (a generation can show several), so
 * stacking them ran past 100%; every cell here is a share of its own column's generations.
 */
export function FailureModesByLengthChart({ rows, itemsHref, height: heightHint, title }: FailureModesByLengthChartProps) {
  const data = rows.filter((r) => r.n > 0).sort((a, b) => a.length - b.length);
  const present = FAILURE_MODES.filter((m) => data.some((r) => (r.modes[m] ?? 0) > 0));
  if (data.length === 0 || present.length === 0)
    return <EmptyChart message="No failure modes recorded." height={heightHint ?? 240} testId="failure-modes-by-length-chart" />;
  const height = heightHint ?? 70 + present.length * 30;
  const describe = data
    .map(
      (r) =>
        `length ${r.length} (${r.n} generations): ` + present.map((m) => `${MODE_LABELS[m]} ${pct((r.modes[m] ?? 0) / r.n)}`).join(", "),
    )
    .join("; ");
  const legend = (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
      <ChartLegend
        title="Share of the length's generations"
        entries={[0.05, 0.25, 0.5, 1].map((s) => ({ label: pct(s), color: TOKEN.heat, swatch: "bar" as const, opacity: heatOpacity(s) }))}
      />
      <span className="chart-note">
        Each cell: share of that length&apos;s generations with the mode. A generation can show several modes, so a column can sum past
        100%.
      </span>
    </div>
  );

  return (
    <ChartFrame
      name="Failure modes by length"
      title={title}
      description={describe}
      legend={legend}
      height={height}
      testId="failure-modes-by-length-chart"
      draw={(plot) => {
        const left = plot.narrow ? 96 : 140;
        const top = plot.top - 8;
        const bottom = plot.height - 34;
        const cellW = (plot.right - left) / data.length;
        const cellH = (bottom - top) / present.length;
        const labelEvery = Math.max(1, Math.ceil(28 / cellW));
        return (
          <>
            {present.map((m, j) => (
              <text key={m} x={left - 6} y={top + (j + 0.5) * cellH + 4} textAnchor="end" fill={TOKEN.muted} fontSize={CHART.font.tick}>
                {MODE_LABELS[m]}
              </text>
            ))}
            {data.map((r, i) =>
              i % labelEvery === 0 || i === data.length - 1 ? (
                <text
                  key={r.length}
                  x={left + (i + 0.5) * cellW}
                  y={bottom + 15}
                  textAnchor="middle"
                  fill={TOKEN.muted}
                  fontSize={CHART.font.tick}
                >
                  {r.length}
                </text>
              ) : null,
            )}
            <text x={(left + plot.right) / 2} y={plot.height - 4} textAnchor="middle" fill={TOKEN.ink} fontSize={CHART.font.label}>
              Length (steps)
            </text>
            {data.flatMap((r, i) =>
              present.map((m, j) => {
                const count = r.modes[m] ?? 0;
                const share = count / r.n;
                const cx = left + i * cellW;
                const cy = top + j * cellH;
                const tip = `Length ${r.length}, ${MODE_LABELS[m]}: ${count} of ${r.n} generations (${pct(share, 1)})${itemsHref && count > 0 ? " — open items" : ""}`;
                const cell = (
                  <>
                    <rect
                      x={cx + 1}
                      y={cy + 1}
                      width={Math.max(0, cellW - 2)}
                      height={Math.max(0, cellH - 2)}
                      rx={2}
                      fill={TOKEN.grid}
                      fillOpacity={0.35}
                    />
                    {share > 0 ? (
                      <rect
                        x={cx + 1}
                        y={cy + 1}
                        width={Math.max(0, cellW - 2)}
                        height={Math.max(0, cellH - 2)}
                        rx={2}
                        fill={TOKEN.heat}
                        fillOpacity={heatOpacity(share)}
                        data-share={share.toFixed(4)}
                      />
                    ) : null}
                    {cellW >= 26 && share > 0 ? (
                      <text
                        x={cx + cellW / 2}
                        y={cy + cellH / 2 + 4}
                        textAnchor="middle"
                        fontSize={CHART.font.note}
                        fill={share >= 0.5 ? TOKEN.surface : TOKEN.ink}
                        pointerEvents="none"
                      >
                        {Math.round(share * 100)}
                      </text>
                    ) : null}
                  </>
                );
                return itemsHref && count > 0 ? (
                  <a
                    key={`${m}-${r.length}`}
                    href={fillHref(itemsHref, { length: r.length, mode: m })}
                    aria-label={tip}
                    className="chart-link"
                  >
                    {cell}
                  </a>
                ) : (
                  <g key={`${m}-${r.length}`} data-tip={tip}>
                    {cell}
                  </g>
                );
              }),
            )}
          </>
        );
      }}
    />
  );
}
