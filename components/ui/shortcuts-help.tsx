"use client";

import { useEffect, useRef } from "react";

const SHORTCUTS: [string, string][] = [
  ["?", "show or hide this help"],
  ["/", "focus the page's search box"],
  ["j / k", "next / previous failed generation (trace diff)"],
  ["Esc", "close this help"],
];

const typing = (t: EventTarget | null) => {
  const el = t as HTMLElement | null;
  return !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
};

/** `?` opens the keyboard shortcuts (a modal dialog), `/` focuses the page's search box. */
export function ShortcutsHelp() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.metaKey || e.ctrlKey || e.altKey || e.defaultPrevented || typing(e.target)) return;
      const d = dialog.current;
      if (!d) return;
      if (e.key === "?") {
        e.preventDefault();
        if (d.open) d.close();
        else d.showModal();
      } else if (e.key === "/" && !d.open) {
        const search = document.querySelector<HTMLInputElement>("main input[type=search]");
        if (search) {
          e.preventDefault();
          search.focus();
        }
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return (
    <>
      <button
        type="button"
        onClick={() => dialog.current?.showModal()}
        className="rounded-md px-2 py-1 text-sm text-neutral-600 hover:bg-neutral-100"
        aria-label="Keyboard shortcuts"
        title="Keyboard shortcuts (?)"
      >
        ?
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="shortcuts-title"
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg border border-neutral-200 bg-white p-5 text-neutral-900 shadow-xl backdrop:bg-black/40"
        onClick={(e) => {
          if (e.target === e.currentTarget) e.currentTarget.close(); // a click on the backdrop
        }}
      >
        <h2 id="shortcuts-title" className="mb-3 text-base font-semibold">
          Keyboard shortcuts
        </h2>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
          {SHORTCUTS.map(([k, v]) => (
            <div key={k} className="contents">
              <dt>
                <kbd className="rounded border border-neutral-300 bg-neutral-50 px-1.5 py-0.5 font-mono text-xs">{k}</kbd>
              </dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
        <form method="dialog" className="mt-4 text-right">
          <button className="rounded-md bg-neutral-900 px-3 py-1.5 text-sm font-medium text-white">Close</button>
        </form>
      </dialog>
    </>
  );
}
