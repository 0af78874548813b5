"use client";

import { useState } from "react";

/**
 * Copies the current page address (path, query and hash: every view keeps its whole state
 * in the URL) so a colleague opening it sees the same screen.
 */
export function CopyLinkButton({ label = "Copy link" }: { label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");

  async function copy() {
    const url = window.location.href;
    try {
      await navigator.clipboard.writeText(url);
      setState("copied");
    } catch {
      // Clipboard API is unavailable on plain http or when denied: fall back to a prompt.
      window.prompt("Copy this link", url);
      setState("failed");
    }
    window.setTimeout(() => setState("idle"), 2000);
  }

  return (
    <button
      type="button"
      onClick={copy}
      data-testid="copy-link"
      className="inline-flex items-center gap-1.5 rounded-md border border-neutral-300 bg-white px-2.5 py-1.5 text-sm font-medium text-neutral-700 shadow-sm hover:bg-neutral-50"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
        <path d="M12.6 3.4a3.5 3.5 0 0 1 4.95 4.95l-2.5 2.5a3.5 3.5 0 0 1-4.95 0 .75.75 0 1 1 1.06-1.06 2 2 0 0 0 2.83 0l2.5-2.5a2 2 0 1 0-2.83-2.83l-1 1a.75.75 0 0 1-1.06-1.06l1-1Zm-5.2 5.2a3.5 3.5 0 0 1 4.95 0 .75.75 0 1 1-1.06 1.06 2 2 0 0 0-2.83 0l-2.5 2.5a2 2 0 1 0 2.83 2.83l1-1a.75.75 0 0 1 1.06 1.06l-1 1A3.5 3.5 0 0 1 2.9 11.1l2.5-2.5Z" />
      </svg>
      <span aria-live="polite">{state === "copied" ? "Link copied" : state === "failed" ? "Copy manually" : label}</span>
    </button>
  );
}
