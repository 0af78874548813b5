"use client";

import { useEffect } from "react";

/**
 * Highlights the row a `#step-J` hash points at in a dict-sum turn table (steps are anchored
 * inside turn rows), also for hashes set by client-side navigation (where :target may not
 * update). The step trace diff handles its own rows.
 */
export function StepTarget() {
  useEffect(() => {
    let current: HTMLElement | null = null;
    function apply() {
      current?.removeAttribute("data-targeted");
      current = null;
      const id = decodeURIComponent(window.location.hash.slice(1));
      if (!id.startsWith("step-")) return;
      const el = document.getElementById(id);
      const row = el?.closest("tr");
      // the trace diff renders and marks its own rows (components/generation/trace-diff.tsx)
      if (!row || row.closest("[data-trace-diff]")) return;
      row.setAttribute("data-targeted", "true");
      current = row;
      row.scrollIntoView({ block: "center" });
    }
    apply();
    window.addEventListener("hashchange", apply);
    return () => window.removeEventListener("hashchange", apply);
  }, []);
  return null;
}
