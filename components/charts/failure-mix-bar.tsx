import { FAILURE_MODES, type FailureMode } from "@/lib/analysis/types";
import { MODE_COLORS, MODE_LABELS, TOKEN } from "./config";

export interface FailureMixBarProps {
  /** failure-mode counts (SPEC §6 failure_modes) */
  modes: Partial<Record<FailureMode, number>>;
  /** generations in the run: the bar shows counts relative to it; omitted → relative to the total of modes */
  generations?: number | null;
  width?: number;
  height?: number;
}

/**
 * Tiny grouped bars of failure-mode shares for table cells: one slot per mode, always in the same
 * place (the legend's order), its height the share of generations showing the mode. Modes overlap
 * (a generation can show several), so they are not stacked: a stack would run past 100%. The text
 * title ("Slip 30, Under-executed 12, …") carries the numbers. Plain SVG: renders on the server.
 */
export function FailureMixBar({ modes, generations, width = 96, height = 16 }: FailureMixBarProps) {
  const entries = FAILURE_MODES.map((m) => [m, modes[m] ?? 0] as const);
  const present = entries.filter(([, c]) => c > 0);
  const text =
    present.length === 0
      ? "No failure modes"
      : "Failure modes: " +
        present.map(([m, c]) => `${MODE_LABELS[m]} ${c}${generations ? ` (${Math.round((c / generations) * 100)}%)` : ""}`).join(", ") +
        (generations ? ` of ${generations} generations` : "");
  if (present.length === 0)
    return (
      <span className="text-xs text-neutral-400" title={text}>
        none
      </span>
    );
  const denom = generations && generations > 0 ? generations : Math.max(...present.map(([, c]) => c));
  const slot = width / entries.length;
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
      <rect y={height - 1} width={width} height={1} fill={TOKEN.axis} />
      {entries.map(([m, c], i) => {
        const h = Math.min(1, c / denom) * (height - 1);
        return c > 0 ? (
          <rect key={m} x={i * slot + 1} y={height - 1 - Math.max(h, 1)} width={slot - 2} height={Math.max(h, 1)} fill={MODE_COLORS[m]} />
        ) : null;
      })}
    </svg>
  );
}
