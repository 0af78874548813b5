"use client";

import type { DataTableColumn } from "@/components/table/data-table";
import { DASH, fmtInt, fmtNum } from "@/components/ui/format";
import { ModeBadge, OutcomeBadge, StatusBadge } from "@/components/ui/status-badge";
import type { ItemRow } from "@/lib/queries/items";
import { generationHref } from "@/lib/url/generation";
import { TraceStrip } from "./trace-strip";

// Column definitions of a run's item table. Answers are model output: rendered as text. The
// links are plain anchors, 100 on a page: DataTable opens them client-side.

export function itemColumns(runKey: string, opts: { epochs: boolean; selfConditioning: boolean }): DataTableColumn<ItemRow>[] {
  const cols: DataTableColumn<ItemRow>[] = [
    {
      id: "item",
      header: "Item",
      meta: { sortKey: "item", className: "whitespace-nowrap" },
      cell: (r) => (
        <a href={generationHref(runKey, r.itemId, { epoch: r.epoch })} className="item-link" data-testid="item-link">
          {r.itemId}
          {opts.epochs ? ` · epoch ${r.epoch}` : null}
        </a>
      ),
    },
    { id: "length", header: "Length", meta: { sortKey: "length", align: "right" }, cell: (r) => fmtInt(r.length) },
  ];
  if (opts.selfConditioning) {
    cols.push({
      id: "rate",
      header: "Induced error rate",
      meta: { align: "right" },
      cell: (r) => fmtNum(r.inducedErrorRate, 2),
    });
  }
  cols.push(
    {
      id: "correct",
      header: "First answer",
      meta: { sortKey: "correct", className: "whitespace-nowrap" },
      // No wrapping elements: an item page has 50 rows, and React's cost is per element.
      cell: (r) => (
        <>
          <OutcomeBadge correct={r.firstCorrect} />
          <Answer text={r.firstAnswer} />
        </>
      ),
    },
    {
      id: "last",
      header: "Last answer",
      meta: { className: "whitespace-nowrap" },
      cell: (r) =>
        r.lastAnswer === r.firstAnswer ? (
          <span className="item-quiet">same</span>
        ) : (
          <>
            <OutcomeBadge correct={r.lastCorrect} />
            <Answer text={r.lastAnswer} />
          </>
        ),
    },
    {
      id: "divergence",
      header: "First divergence",
      meta: { sortKey: "divergence", className: "whitespace-nowrap" },
      cell: (r) =>
        r.firstDivergence === null ? (
          <span className="item-quiet">{DASH}</span>
        ) : (
          <a href={generationHref(runKey, r.itemId, { epoch: r.epoch }, r.firstDivergence)} className="item-step">
            {`step ${r.firstDivergence}`}
            {r.divergenceKind === "slip" || r.divergenceKind === "propagated" || r.divergenceKind === "missing" ? (
              <StatusBadge status={r.divergenceKind} />
            ) : null}
            {r.lastCorrect ? (
              <span className="badge badge-correct" title="The final answer is right after this divergence">
                recovered
              </span>
            ) : null}
          </a>
        ),
    },
    {
      id: "trace",
      header: "Trace",
      meta: { title: "One band per step: correct, slip, propagated or missing (legend above the table)" },
      cell: (r) => <TraceStrip statuses={r.statuses} />,
    },
    {
      id: "modes",
      header: "Failure modes",
      cell: (r) =>
        r.modes.length === 0 ? (
          <span className="item-quiet">{r.clean ? "clean" : "none"}</span>
        ) : r.modes.length === 1 ? (
          <ModeBadge mode={r.modes[0]} />
        ) : (
          <div className="flex flex-wrap gap-1">
            {r.modes.map((m) => (
              <ModeBadge key={m} mode={m} />
            ))}
          </div>
        ),
    },
  );
  return cols;
}

/**
 * A model's answer (text, never HTML), cut to one line; the title holds all of it. No answer
 * is written apart from answers (italic, not code), so that it never reads as a model's "none".
 */
function Answer({ text }: { text: string | null }) {
  return text === null ? (
    <span className="item-no-answer" title="no answer in the output">
      none
    </span>
  ) : (
    <span className="item-answer" title={text}>
      {text}
    </span>
  );
}
