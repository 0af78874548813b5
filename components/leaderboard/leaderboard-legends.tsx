import { Link } from "@/components/ui/link";
import { MODE_COLORS, MODE_LABELS } from "@/components/charts/config";
import { FAILURE_MODES } from "@/lib/analysis/types";
import { glossaryHref } from "@/lib/url/glossary";

/** What the leaderboard's failure-mode bars mean: shown once above the table, not per row. */
export function LeaderboardLegends() {
  return (
    <div className="mb-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-neutral-600" data-testid="failure-mode-legend">
      <Link href={glossaryHref("failure-modes")} className="underline">
        Failure modes
      </Link>
      <span>(share of generations; a generation can show several):</span>
      {FAILURE_MODES.map((m) => (
        <span key={m} className="inline-flex items-center gap-1">
          <span aria-hidden="true" className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: MODE_COLORS[m] }} />
          {MODE_LABELS[m]}
        </span>
      ))}
    </div>
  );
}
