"use client";

import type { DataTableColumn } from "@/components/table/data-table";
import { DASH, fmtCI, fmtHorizon, fmtInt, fmtLengthCI, fmtLengthFit, fmtModelSize, fmtNum, fmtP, fmtPct } from "@/components/ui/format";
import type { LeaderboardRow } from "@/lib/queries/leaderboard";
import { runPath } from "@/lib/url/shared";
import { LeaderboardCurveCell, LeaderboardModeMixCell } from "./leaderboard-chart-cells";

// Column definitions of the leaderboard table. `sortKey` names the URL sort value; the
// server sorts, this file only renders. The run link is a plain anchor: DataTable opens its
// links client-side.

export function leaderboardColumns(at: number[]): DataTableColumn<LeaderboardRow>[] {
  return [
    {
      id: "model",
      header: "Model",
      meta: { sortKey: "model", className: "min-w-36 max-w-44 sm:min-w-44 sm:max-w-none", sticky: true },
      cell: (r) => (
        <div>
          <a href={runPath(r.key)} className="font-medium break-words text-sky-800 hover:underline" data-testid="run-link">
            {r.model}
          </a>
          {/* a phone scrolls the table sideways: the row's key number stays beside its name */}
          <div className="text-xs text-neutral-700 sm:hidden" data-testid="h50-inline">
            H₀.₅ <span className="font-semibold">{r.h50 === null ? DASH : fmtHorizon(r.h50, r.h50Censored)}</span>{" "}
            {r.h50 !== null ? <span className="text-neutral-500">{fmtCI(r.h50Lo, r.h50Hi)}</span> : null}
          </div>
          <div className="mt-0.5 flex flex-wrap items-center gap-1.5 text-xs text-neutral-500">
            {r.family ? <span>{r.family}</span> : null}
            {r.paramsB !== null ? <span>{fmtModelSize(r.paramsB)}</span> : null}
            {r.thinking ? (
              <span className="rounded bg-indigo-50 px-1 text-indigo-700 ring-1 ring-indigo-200 ring-inset">thinking</span>
            ) : null}
            {r.demo ? (
              <span
                className="rounded bg-neutral-100 px-1 text-neutral-600 ring-1 ring-neutral-300 ring-inset"
                title="Simulated demo run"
                data-testid="demo-badge"
              >
                demo
              </span>
            ) : null}
            {r.status !== "complete" ? (
              <span className="rounded bg-amber-50 px-1 text-amber-800 ring-1 ring-amber-300 ring-inset">{r.status}</span>
            ) : null}
          </div>
        </div>
      ),
    },
    {
      id: "variant",
      header: "Variant",
      meta: { sortKey: "variant", className: "max-w-44 break-words" },
      cell: (r) => (
        <div>
          <div className="text-neutral-800">{r.variant}</div>
          <div className="text-xs text-neutral-500">{fmtInt(r.items)} items</div>
        </div>
      ),
    },
    {
      id: "h50",
      header: "H₀.₅",
      meta: {
        sortKey: "h50",
        align: "right",
        className: "whitespace-nowrap",
        title: "Horizon at s = 0.5: leading steps with task accuracy ≥ 50%, with its 95% bootstrap CI",
      },
      cell: (r) =>
        r.h50 === null ? (
          <span className="text-neutral-400">{DASH}</span>
        ) : (
          <div>
            <div className="font-semibold" data-testid="h50">
              {fmtHorizon(r.h50, r.h50Censored)}
            </div>
            <div className="text-xs text-neutral-500">{fmtCI(r.h50Lo, r.h50Hi)}</div>
            {r.rank ? (
              <span
                className={`mt-0.5 inline-block rounded px-1 text-[11px] font-medium ring-1 ring-inset ${r.rank === "leader" ? "bg-neutral-900 text-white ring-neutral-900" : "bg-neutral-100 text-neutral-700 ring-neutral-300"}`}
                title={r.rank === "leader" ? "Highest H₀.₅ in its benchmark" : "95% CI overlaps the benchmark leader's"}
              >
                {r.rank}
              </span>
            ) : null}
          </div>
        ),
    },
    {
      id: "l50",
      header: "L50",
      meta: {
        sortKey: "l50",
        align: "right",
        className: "max-w-36",
        title:
          "Length (steps; human minutes for METR runs) at which first-answer accuracy is predicted to be 50% (logistic fit on log₂ length)",
      },
      cell: (r) => {
        const f = fmtLengthFit(r.l50, r.maxLength, r.lengthUnit);
        return (
          <div className={f.extrapolated ? "text-neutral-500 italic" : ""}>
            <div>{f.text}</div>
            {!f.extrapolated && r.l50 !== null ? (
              <div className="text-xs text-neutral-500 not-italic">{fmtLengthCI(r.l50Lo, r.l50Hi, r.maxLength, r.lengthUnit)}</div>
            ) : null}
          </div>
        );
      },
    },
    ...at.map((length, i): DataTableColumn<LeaderboardRow> => ({
      id: `at:${length}`,
      header: `Acc @ ${length}`,
      meta: {
        sortKey: `at:${length}`,
        align: "right",
        className: "whitespace-nowrap",
        title: `First-answer accuracy on items of length ${length}`,
      },
      cell: (r) => {
        const a = r.accuracyAt[i];
        return a && a.accuracy !== null ? (
          <div>
            <div>{fmtPct(a.accuracy)}</div>
            <div className="text-xs text-neutral-400">n={fmtInt(a.n)}</div>
          </div>
        ) : (
          <span className="text-neutral-400">{DASH}</span>
        );
      },
    })),
    {
      id: "p",
      header: "p̂",
      meta: {
        sortKey: "p",
        align: "right",
        className: "whitespace-nowrap",
        title: "Step reliability: locally correct steps / reference steps; below it the horizon p̂ predicts (ln 0.5 / ln p̂)",
      },
      cell: (r) =>
        r.p === null ? (
          <span className="text-neutral-400">{DASH}</span>
        ) : (
          <div>
            <div>{fmtP(r.p)}</div>
            <div className="text-xs text-neutral-500" title="H₀.₅ predicted from p̂ alone: ln 0.5 / ln p̂">
              pred. H₀.₅ {r.p >= 1 ? "∞" : fmtNum(r.predictedHorizon, 1)}
            </div>
          </div>
        ),
    },
    {
      id: "modes",
      header: "Failures",
      meta: { title: "Share of generations showing each failure mode" },
      cell: (r) => <LeaderboardModeMixCell row={r} />,
    },
    {
      id: "curve",
      header: "Curve",
      meta: { title: "First-answer accuracy by length (sparkline)" },
      cell: (r) => <LeaderboardCurveCell row={r} />,
    },
  ];
}
