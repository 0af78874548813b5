"use client";

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { fmtValue } from "@/components/ui/format";
import { STATUS_STYLE, StatusBadge } from "@/components/ui/status-badge";
import type { GenerationStep } from "@/lib/queries/generation";
import { stepAnchor } from "@/lib/url/step-anchor";
import { OperationText, StepExplanation } from "./step-detail";

// The aligned trace diff, windowed: a long trace (more than VIRTUAL_ABOVE rows) keeps only
// the rows in view (plus a margin) in the DOM, inside its own scroll box, so a 95-step trace
// costs the server and the browser about 40 rows. Every row has one line, so a row's height
// is measured once and the rows out of view are stood in for by two spacer rows.
// `#step-J` (typed, linked from the raw output or the divergence callout) brings row J into
// the window, scrolls to it and marks it; the first divergence is scrolled into view on load.

export interface TraceExtraRow {
  step: number;
  value: string;
}

const VIRTUAL_ABOVE = 40;
/** rows rendered before the browser has measured anything (server render, first paint) */
const FIRST_WINDOW = 32;
const OVERSCAN = 10;
const ROW_ESTIMATE = 33; // px: text-sm line + py-1.5 + 1 px border

type Range = [number, number];

function stepOfHash(): number | null {
  const m = /^step-(\d+)$/.exec(decodeURIComponent(window.location.hash.slice(1)));
  return m ? Number(m[1]) : null;
}

export function TraceDiff({
  steps,
  extras,
  firstDivergence,
  revised,
  showOps,
  length,
}: {
  steps: GenerationStep[];
  extras: TraceExtraRow[];
  firstDivergence: number | null;
  /** later restatements of a step's value, formatted */
  revised: Record<number, string[]>;
  showOps: boolean;
  length: number;
}) {
  const total = steps.length + extras.length;
  const virtual = total > VIRTUAL_ABOVE;
  const box = useRef<HTMLDivElement | null>(null);
  const [rowH, setRowH] = useState(ROW_ESTIMATE);
  const [range, setRange] = useState<Range>(virtual ? [0, FIRST_WINDOW] : [0, total]);
  const [target, setTarget] = useState<number | null>(null);
  const pending = useRef<{ index: number; page: boolean; tries: number } | null>(null);
  // The window last committed, for handlers and effects that must know whether a move is one.
  const shown = useRef<Range>(range);
  useLayoutEffect(() => {
    shown.current = range;
  }, [range]);

  /** Moves the window to the rows in view of the scroll box (plus a margin), rows being h px high; false if it was there. */
  const place = useCallback(
    (h: number): boolean => {
      const el = box.current;
      if (!el || !virtual) return false;
      const head = el.querySelector("thead")?.getBoundingClientRect().height ?? 0;
      const top = Math.max(0, el.scrollTop - head);
      const start = Math.max(0, Math.floor(top / h) - OVERSCAN);
      const end = Math.min(total, Math.ceil((top + el.clientHeight) / h) + OVERSCAN);
      if (shown.current[0] === start && shown.current[1] === end) return false;
      setRange([start, end]);
      return true;
    },
    [total, virtual],
  );
  const sync = useCallback(() => place(rowH), [place, rowH]);

  /**
   * Renders row `index` and, once it is in the DOM, scrolls to it: the box only (it sits a
   * third of the way down), or the page too (centred) for a hash the reader followed.
   */
  const reveal = useCallback(
    (index: number, page: boolean) => {
      pending.current = { index, page, tries: 0 };
      if (virtual) setRange([Math.max(0, index - FIRST_WINDOW / 2), Math.min(total, index + FIRST_WINDOW / 2)]);
    },
    [total, virtual],
  );

  // When the box mounts (and when a new trace comes in): measure a row, then show the first
  // divergence or the rows in view; scrolling and hashes take over from there.
  const attach = useCallback(
    (el: HTMLDivElement | null) => {
      box.current = el;
      if (!el) return;
      const rows = [...el.querySelectorAll<HTMLElement>("tbody tr[data-status]")];
      const height = rows.reduce((sum, r) => sum + r.getBoundingClientRect().height, 0);
      const h = height > 0 ? height / rows.length : ROW_ESTIMATE;
      setRowH(h);
      if (stepOfHash() === null && firstDivergence !== null && firstDivergence > FIRST_WINDOW / 2) reveal(firstDivergence - 1, false);
      else place(h);
    },
    [firstDivergence, reveal, place],
  );

  useEffect(() => {
    function onHash() {
      const j = stepOfHash();
      if (j === null || j < 1 || j > steps.length) return setTarget(null);
      reveal(j - 1, true);
      setTarget(j);
    }
    onHash();
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, [reveal, steps.length]);

  // After a render that holds the row asked for: scroll to it, move the window there, and
  // scroll again once the window has settled (spacers are estimates, so rows may shift a little).
  useLayoutEffect(() => {
    const want = pending.current;
    const el = box.current;
    const row = want && el?.querySelector<HTMLElement>(`tbody tr[aria-rowindex="${want.index + 2}"]`);
    if (!want || !el || !row) return;
    if (want.page) row.scrollIntoView({ block: "center" });
    else el.scrollTop += row.getBoundingClientRect().top - el.getBoundingClientRect().top - el.clientHeight / 3;
    if (!sync() || ++want.tries >= 3) pending.current = null;
  });

  const [start, end] = range; // [0, total] throughout when the trace is not windowed
  const h = rowH;
  const cols = showOps ? 6 : 5;
  const rows: React.ReactNode[] = [];
  for (let i = start; i < end; i++) {
    if (i < steps.length)
      rows.push(
        <StepRow
          key={steps[i].step}
          index={i}
          s={steps[i]}
          first={steps[i].step === firstDivergence}
          targeted={steps[i].step === target}
          revised={revised[steps[i].step]}
          showOps={showOps}
        />,
      );
    else {
      const k = i - steps.length;
      const x = extras[k];
      rows.push(
        <tr key={`extra-${k}`} id={`extra-${k + 1}`} aria-rowindex={i + 2} className={STATUS_STYLE.extra.row} data-status="extra">
          <td className="text-right font-mono text-xs text-neutral-500">{x.step}</td>
          {showOps ? <td className="text-neutral-500">outside 1..{length}</td> : null}
          <td className="text-right text-neutral-400">—</td>
          <td className="text-right font-mono text-xs">{x.value}</td>
          <td>
            <StatusBadge status="extra" />
          </td>
          <td className="text-xs text-violet-900">a step the procedure does not have</td>
        </tr>,
      );
    }
  }

  return (
    <div
      ref={attach}
      onScroll={virtual ? sync : undefined}
      data-trace-diff={virtual ? "windowed" : "whole"}
      className={`-mx-4 -my-4 overflow-x-auto ${virtual ? "max-h-[70vh] overflow-y-auto overscroll-contain xl:max-h-[calc(100vh-10rem)]" : ""}`}
    >
      <table
        className="tabular min-w-full text-sm whitespace-nowrap [&_td]:px-3 [&_td]:py-1.5"
        data-testid="step-table"
        aria-rowcount={total + 1}
      >
        <caption className="sr-only">Reference steps aligned with the model&apos;s claimed steps</caption>
        <thead className="sticky top-0 z-10 bg-neutral-50 text-left text-xs font-semibold tracking-wide text-neutral-600 uppercase shadow-[0_1px_0_var(--color-neutral-200)]">
          <tr aria-rowindex={1}>
            <th scope="col" className="px-3 py-2 text-right">
              Step
            </th>
            {showOps ? (
              <th scope="col" className="px-3 py-2">
                Operation
              </th>
            ) : null}
            <th scope="col" className="px-3 py-2 text-right">
              Reference
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Model
            </th>
            <th scope="col" className="px-3 py-2">
              Status
            </th>
            <th scope="col" className="px-3 py-2">
              Detail
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-neutral-100">
          {start > 0 ? (
            <tr aria-hidden="true" style={{ height: start * h }}>
              <td colSpan={cols} />
            </tr>
          ) : null}
          {rows}
          {end < total ? (
            <tr aria-hidden="true" style={{ height: (total - end) * h }}>
              <td colSpan={cols} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

function StepRow({
  s,
  index,
  first,
  targeted,
  revised,
  showOps,
}: {
  s: GenerationStep;
  index: number;
  first: boolean;
  targeted: boolean;
  revised?: string[];
  showOps: boolean;
}) {
  return (
    <tr
      id={stepAnchor(s.step)}
      aria-rowindex={index + 2}
      data-status={s.status}
      data-first-divergence={first ? "true" : undefined}
      data-targeted={targeted ? "true" : undefined}
      className={`${STATUS_STYLE[s.status].row} ${first ? "outline-2 -outline-offset-2 outline-red-600" : ""}`}
    >
      <td className="text-right">
        <a
          href={"#" + stepAnchor(s.step)}
          className="font-mono text-xs text-neutral-500 hover:text-neutral-900 hover:underline"
          aria-label={`Link to step ${s.step}`}
        >
          {s.step}
        </a>
      </td>
      {showOps ? (
        <td className="text-neutral-700">
          <OperationText step={s} />
        </td>
      ) : null}
      <td className="text-right font-mono text-xs">{fmtValue(s.expected)}</td>
      <td className="text-right font-mono text-xs">
        {s.claimed === null ? (
          <span className="text-neutral-400">—</span>
        ) : s.span ? (
          <a href={`#claim-${s.step}`} className="hover:underline" title="Show in the raw output">
            {fmtValue(s.claimed)}
          </a>
        ) : (
          fmtValue(s.claimed)
        )}
      </td>
      <td>
        <span className="inline-flex items-center gap-1">
          <StatusBadge status={s.status} />
          {revised ? <StatusBadge status="revised" /> : null}
          {first ? <span className="rounded bg-red-600 px-1.5 py-0.5 text-[11px] font-semibold text-white">first divergence</span> : null}
        </span>
      </td>
      <td className="text-xs">
        <StepExplanation step={s} />
        {revised ? (
          <span className="ml-2 text-sky-900">
            later restated as{" "}
            {revised.map((v, i) => (
              <span key={i} className="font-mono">
                {i ? ", " : ""}
                {v}
              </span>
            ))}
          </span>
        ) : null}
      </td>
    </tr>
  );
}
