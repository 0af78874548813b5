import { CurveSparkline } from "@/components/charts/curve-sparkline";
import { FailureMixBar } from "@/components/charts/failure-mix-bar";
import { modelStyle } from "@/components/charts/palette";
import { DASH } from "@/components/ui/format";
import type { LeaderboardRow } from "@/lib/queries/leaderboard";

// The leaderboard's mini charts (drawn by components/charts), with "—" where a run has
// nothing to draw.

export function LeaderboardModeMixCell({ row }: { row: LeaderboardRow }) {
  return <FailureMixBar modes={row.failureModes} generations={row.generations} />;
}

export function LeaderboardCurveCell({ row }: { row: LeaderboardRow }) {
  if (row.curve.length < 2)
    return (
      <span className="text-neutral-400" title="Fewer than two tested lengths">
        {DASH}
      </span>
    );
  return (
    <CurveSparkline
      points={row.curve}
      style={modelStyle(row.modelId)}
      series={row.key}
      label={`${row.model}: first-answer accuracy by length`}
    />
  );
}
