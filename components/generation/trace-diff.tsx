"use client";

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { fmtValue } from "@/components/ui/format";
import { STATUS_STYLE, StatusBadge } from "@/components/ui/status-badge";
import type { GenerationStep } from "@/lib/queries/generation";
import { stepAnchor } from "@/lib/url/step-anchor";
import { OperationText, StepExplanation } from "./step-detail";

// The aligned trace diff, windowed: a long trace (more than VIRTUAL_ABOVE rows) keeps only
// the rows in view (plus a margin) in the DOM, inside its own scroll box, so a 95-step trace
// costs the server and the browser about 40 rows. The DETAIL column wraps (the explanation of
// a slip is the point of the page and must not sit beyond a sideways scroll), so rows differ
// in height: each rendered row's height is measured and kept, rows never rendered count as
// the mean of those measured, and two spacer rows stand in for the rows out of view.
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

/** The rows rendered, [start, end), and the heights of the spacers above and below them. */
type RowWindow = { start: number; end: number; above: number; below: number };

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
  /** height of every row: measured once rendered, else the mean of those measured (read in callbacks only) */
  const sizes = useRef<{ size: Float64Array; seen: Uint8Array } | null>(null);
  const [win, setWin] = useState<RowWindow>(() =>
    virtual
      ? { start: 0, end: FIRST_WINDOW, above: 0, below: (total - FIRST_WINDOW) * ROW_ESTIMATE }
      : { start: 0, end: total, above: 0, below: 0 },
  );
  const [target, setTarget] = useState<number | null>(null);
  const pending = useRef<{ index: number; page: boolean; tries: number } | null>(null);
  const shown = useRef<RowWindow>(win);
  useLayoutEffect(() => {
    shown.current = win;
  });

  const sizesOf = useCallback(() => {
    if (!sizes.current) sizes.current = { size: new Float64Array(total).fill(ROW_ESTIMATE), seen: new Uint8Array(total) };
    return sizes.current;
  }, [total]);

  /** Records the heights of the rows in the DOM; rows not yet seen take their mean. */
  const measure = useCallback(() => {
    const el = box.current;
    if (!el) return;
    const { size, seen } = sizesOf();
    for (const row of el.querySelectorAll<HTMLElement>("tbody tr[data-status]")) {
      const i = Number(row.getAttribute("aria-rowindex")) - 2;
      const h = row.getBoundingClientRect().height;
      if (i >= 0 && i < total && h > 0) {
        size[i] = h;
        seen[i] = 1;
      }
    }
    let sum = 0;
    let n = 0;
    for (let i = 0; i < total; i++) {
      if (!seen[i]) continue;
      sum += size[i];
      n++;
    }
    if (n > 0) for (let i = 0; i < total; i++) if (!seen[i]) size[i] = sum / n;
  }, [sizesOf, total]);

  /** Rows [start, end) with the heights of the spacers standing in for the rest. */
  const windowOf = useCallback(
    (start: number, end: number): RowWindow => {
      const { size } = sizesOf();
      let above = 0;
      let below = 0;
      for (let i = 0; i < start; i++) above += size[i];
      for (let i = end; i < total; i++) below += size[i];
      return { start, end, above, below };
    },
    [sizesOf, total],
  );

  /** Moves the window to the rows in view of the scroll box (plus a margin); false if it was there. */
  const sync = useCallback((): boolean => {
    const el = box.current;
    if (!el || !virtual) return false;
    measure();
    const { size } = sizesOf();
    const head = el.querySelector("thead")?.getBoundingClientRect().height ?? 0;
    const top = Math.max(0, el.scrollTop - head);
    let i = 0;
    let y = 0;
    while (i < total && y + size[i] <= top) y += size[i++];
    const start = Math.max(0, i - OVERSCAN);
    while (i < total && y < top + el.clientHeight) y += size[i++];
    const next = windowOf(start, Math.min(total, i + OVERSCAN));
    const cur = shown.current;
    // Spacers re-measured by less than a pixel are not worth a render.
    if (cur.start === next.start && cur.end === next.end && Math.abs(cur.above - next.above) < 1 && Math.abs(cur.below - next.below) < 1)
      return false;
    shown.current = next;
    setWin(next);
    return true;
  }, [measure, sizesOf, total, virtual, windowOf]);

  /**
   * Renders row `index` and, once it is in the DOM, scrolls to it: the box only (it sits a
   * third of the way down), or the page too (centred) for a hash the reader followed.
   */
  const reveal = useCallback(
    (index: number, page: boolean) => {
      pending.current = { index, page, tries: 0 };
      if (virtual) setWin(windowOf(Math.max(0, index - FIRST_WINDOW / 2), Math.min(total, index + FIRST_WINDOW / 2)));
    },
    [total, virtual, windowOf],
  );

  // When the box mounts (and again for a new trace): measure the rows, then show the first
  // divergence or the rows in view; scrolling and hashes take over from there. A ref callback
  // rather than a mount effect: it runs once the rows are in the DOM, before paint, and may set state.
  const attach = useCallback(
    (el: HTMLDivElement | null) => {
      box.current = el;
      if (!el) return;
      measure();
      if (stepOfHash() === null && firstDivergence !== null && firstDivergence > FIRST_WINDOW / 2) reveal(firstDivergence - 1, false);
      else sync();
    },
    [firstDivergence, measure, reveal, sync],
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

  const { start, end, above, below } = win; // rows [0, total) throughout when the trace is not windowed
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
          {showOps ? <td className="hidden text-neutral-500 md:table-cell">outside 1..{length}</td> : null}
          <td className="text-right text-neutral-400">—</td>
          <td className="text-right font-mono text-xs">{x.value}</td>
          <td>
            <StatusBadge status="extra" />
          </td>
          <td className="min-w-36 text-xs whitespace-normal text-violet-900">a step the procedure does not have</td>
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
        className="tabular w-full text-sm whitespace-nowrap [&_td]:px-2 [&_td]:py-1.5 sm:[&_td]:px-3"
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
              <th scope="col" className="hidden px-3 py-2 md:table-cell">
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
            <th scope="col" className="w-full px-3 py-2">
              Detail
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-neutral-100">
          {start > 0 ? (
            <tr aria-hidden="true" style={{ height: above }}>
              <td colSpan={cols} />
            </tr>
          ) : null}
          {rows}
          {end < total ? (
            <tr aria-hidden="true" style={{ height: below }}>
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
        <td className="hidden text-neutral-700 md:table-cell">
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
        <span className="flex max-w-40 flex-wrap items-center gap-1">
          <StatusBadge status={s.status} />
          {revised ? <StatusBadge status="revised" /> : null}
          {first ? <span className="rounded bg-red-600 px-1.5 py-0.5 text-[11px] font-semibold text-white">first divergence</span> : null}
        </span>
      </td>
      <td className="min-w-36 text-xs whitespace-normal">
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
