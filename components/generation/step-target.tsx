"use client";

import { useEffect } from "react";

/**
 * Highlights the row a `#step-J` hash points at. CSS :target covers rows that carry the id
 * themselves; this also covers steps anchored inside a turn row, and hashes set by
 * client-side navigation (where :target may not update).
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
      if (!row) return;
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
