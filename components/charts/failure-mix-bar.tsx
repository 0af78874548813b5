import { FAILURE_MODES, type FailureMode } from "@/lib/analysis/types";
import { MODE_COLORS, MODE_LABELS } from "./theme";

export interface FailureMixBarProps {
  /** failure-mode counts (SPEC §6 failure_modes) */
  modes: Partial<Record<FailureMode, number>>;
  /** generations in the run: the bar shows counts relative to it; omitted → relative to the total of modes */
  generations?: number | null;
  width?: number;
  height?: number;
}

/**
 * Tiny stacked bar of failure-mode counts for table cells, with a text title
 * ("Slip 30, Under-executed 12, …") so the mix is not conveyed by colour alone.
 * Plain SVG: renders on the server.
 */
export function FailureMixBar({ modes, generations, width = 96, height = 12 }: FailureMixBarProps) {
  const entries = FAILURE_MODES.map((m) => [m, modes[m] ?? 0] as const).filter(([, c]) => c > 0);
  const sum = entries.reduce((a, [, c]) => a + c, 0);
  const text =
    entries.length === 0
      ? "No failure modes"
      : "Failure modes: " +
        entries.map(([m, c]) => `${MODE_LABELS[m]} ${c}`).join(", ") +
        (generations ? ` (of ${generations} generations)` : "");
  if (entries.length === 0)
    return (
      <span className="text-xs text-neutral-400" title={text}>
        none
      </span>
    );
  // Modes overlap (one generation can show several), so scale to the larger of the two totals.
  const denom = Math.max(sum, generations ?? 0);
  const widths = entries.map(([, c]) => (c / denom) * width);
  const lefts = widths.map((_, i) => widths.slice(0, i).reduce((a, w) => a + w, 0));
  return (
    <svg
      role="img"
      aria-label={text}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      className="inline-block align-middle"
    >
      <title>{text}</title>
      <rect width={width} height={height} rx={2} fill="#f5f5f5" />
      {entries.map(([m], i) => (
        <rect key={m} x={lefts[i]} y={0} width={Math.max(widths[i] - 0.5, 0.5)} height={height} fill={MODE_COLORS[m]} />
      ))}
    </svg>
  );
}
