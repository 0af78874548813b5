"use client";

import { DASH, fmtPct } from "@/components/ui/format";
import { MODE_LABEL } from "@/components/ui/status-badge";
import { FAILURE_MODES } from "@/lib/analysis/types";
import type { LeaderboardRow } from "@/lib/queries/leaderboard";

// PLACEHOLDER SLOTS: the mini charts come from components/charts (helper D):
// failure-mix-bar.tsx and curve-sparkline.tsx. Until they exist these cells show the
// same information as text.

export function LeaderboardModeMixCell({ row }: { row: LeaderboardRow }) {
  const top = FAILURE_MODES.map((m) => ({ m, n: row.failureModes[m] }))
    .filter((x) => x.n > 0)
    .sort((a, b) => b.n - a.n)
    .slice(0, 2);
  if (top.length === 0) return <span className="text-xs text-neutral-400">none</span>;
  return (
    <div className="text-xs text-neutral-600" data-slot="failure-mix-bar">
      {top.map((t) => (
        <div key={t.m}>
          {MODE_LABEL[t.m]} {fmtPct(t.n / Math.max(1, row.generations))}
        </div>
      ))}
    </div>
  );
}

export function LeaderboardCurveCell({ row }: { row: LeaderboardRow }) {
  if (row.curve.length < 2) return <span className="text-neutral-400">{DASH}</span>;
  return (
    <span className="text-xs text-neutral-500" data-slot="curve-sparkline">
      {fmtPct(row.curve[0].accuracy)} → {fmtPct(row.curve[row.curve.length - 1].accuracy)}
    </span>
  );
}
