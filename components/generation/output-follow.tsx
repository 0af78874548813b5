"use client";

import { useEffect } from "react";

const STEP_HASH = /^step-(\d+)$/;

/**
 * Keeps the raw output pane on the step the URL points at (`#step-J`, typed, followed or set
 * by a click in the trace): scrolls the pane (only the pane: the page scroll belongs to the
 * trace) to the claim of step J and marks it. Multi-turn dict-sum claims are turn answers,
 * so step J follows its turn's answer (`turnOfStep`).
 */
export function OutputFollow({ turnOfStep }: { turnOfStep: (number | null)[] | null }) {
  useEffect(() => {
    let current: HTMLElement | null = null;
    function apply() {
      current?.removeAttribute("data-targeted");
      current = null;
      const m = STEP_HASH.exec(decodeURIComponent(window.location.hash.slice(1)));
      const pane = document.querySelector<HTMLElement>("[data-output-pane]");
      if (!m || !pane) return;
      const j = Number(m[1]);
      const turn = turnOfStep ? turnOfStep[j - 1] : null;
      const mark = turnOfStep
        ? turn != null
          ? pane.querySelector<HTMLElement>(`a[data-turn="${turn}"]`)
          : null
        : pane.querySelector<HTMLElement>(`a[id="claim-${j}"]`);
      if (!mark) return;
      mark.setAttribute("data-targeted", "true");
      current = mark;
      const offset = mark.getBoundingClientRect().top - pane.getBoundingClientRect().top;
      pane.scrollTop += offset - pane.clientHeight / 3;
    }
    apply();
    window.addEventListener("hashchange", apply);
    return () => window.removeEventListener("hashchange", apply);
  }, [turnOfStep]);
  return null;
}
