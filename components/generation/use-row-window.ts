"use client";

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

// Windowing of the trace diff's rows: a long trace (more than VIRTUAL_ABOVE rows) keeps only
// the rows in view (plus a margin) in the DOM, inside its own scroll box, so a 95-step trace
// costs the server and the browser about 40 rows. Rows differ in height (the detail column
// wraps): each rendered row's height is measured and kept, rows never rendered count as the
// mean of those measured, and two spacer rows stand in for the rows out of view. `#step-J`
// brings row J into the window, scrolls to it and marks it; the first divergence is scrolled
// into view on load. Rows are found as `tbody tr[data-status]` with aria-rowindex = index + 2.

const VIRTUAL_ABOVE = 40;
/** rows rendered before the browser has measured anything (server render, first paint) */
const FIRST_WINDOW = 32;
const OVERSCAN = 10;
const ROW_ESTIMATE = 33; // px: text-sm line + py-1.5 + 1 px border

/** The rows rendered, [start, end), and the heights of the spacers above and below them. */
export type RowWindow = { start: number; end: number; above: number; below: number };

function stepOfHash(): number | null {
  const m = /^step-(\d+)$/.exec(decodeURIComponent(window.location.hash.slice(1)));
  return m ? Number(m[1]) : null;
}

/**
 * The rows to render of a table of `total` rows (the first `steps` of them steps 1..steps),
 * with `attach` for the scroll box and `sync` for its scroll events.
 */
export function useRowWindow(total: number, steps: number, firstDivergence: number | null) {
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
      if (j === null || j < 1 || j > steps) return setTarget(null);
      reveal(j - 1, true);
      setTarget(j);
    }
    onHash();
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, [reveal, steps]);

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

  return { win, target, virtual, attach, sync };
}
