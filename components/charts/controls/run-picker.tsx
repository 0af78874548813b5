"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { runListValue } from "@/lib/url/run-list";

export interface PickerOption {
  key: string;
  model: string;
  benchmark: string;
  variant: string;
  items: number;
}

export interface RunPickerProps {
  options: PickerOption[];
  /** selected keys, in URL order */
  selected: string[];
  /** display label per selected key */
  labels: Record<string, string>;
  /** the view's path, e.g. "/curves" */
  basePath: string;
  /** the rest of the query string to keep (without `runs`), e.g. "answer=both&x=log" */
  keep?: string;
  /** compare view: the first run is the baseline and can be swapped */
  baseline?: boolean;
  max?: number;
}

/**
 * Picks runs for a view. It only writes the URL (`runs=A,B`); the server renders the rest.
 * Labels and names are untrusted text and are rendered as text.
 */
export function RunPicker({ options, selected, labels, basePath, keep = "", baseline = false, max = 8 }: RunPickerProps) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();

  function go(keys: string[]) {
    const parts = [keys.length ? "runs=" + runListValue(keys) : "", keep].filter(Boolean);
    startTransition(() => router.push(basePath + (parts.length ? "?" + parts.join("&") : ""), { scroll: false }));
  }

  const groups = new Map<string, PickerOption[]>();
  for (const o of options) {
    if (selected.includes(o.key)) continue;
    const g = `${o.benchmark} / ${o.variant}`;
    groups.set(g, [...(groups.get(g) ?? []), o]);
  }
  const full = selected.length >= max;

  return (
    <div className="flex min-w-0 flex-col gap-2" aria-busy={pending} data-testid="run-picker">
      <ul aria-label="Selected runs" className="flex flex-wrap gap-2">
        {selected.map((k, i) => (
          <li
            key={k}
            className="flex max-w-full items-center gap-1 rounded-full border border-neutral-300 bg-white py-0.5 pr-1 pl-3 text-sm shadow-sm"
            data-testid="selected-run"
          >
            {baseline ? (
              <span
                className={`mr-1 rounded px-1.5 text-[11px] font-semibold tracking-wide uppercase ${i === 0 ? "bg-neutral-800 text-white" : "bg-neutral-100 text-neutral-600"}`}
              >
                {i === 0 ? "baseline" : String.fromCharCode(65 + i)}
              </span>
            ) : null}
            <span className="truncate" title={k}>
              {labels[k] ?? k}
            </span>
            {baseline && i > 0 ? (
              <button
                type="button"
                onClick={() => go([k, ...selected.filter((x) => x !== k)])}
                className="rounded-full px-1.5 text-xs text-neutral-500 hover:bg-neutral-100 hover:text-neutral-800"
                aria-label={`Make ${labels[k] ?? k} the baseline`}
                title="Make baseline"
              >
                ⇤
              </button>
            ) : null}
            <button
              type="button"
              onClick={() => go(selected.filter((x) => x !== k))}
              className="rounded-full px-1.5 text-neutral-500 hover:bg-neutral-100 hover:text-neutral-800"
              aria-label={`Remove ${labels[k] ?? k}`}
            >
              ×
            </button>
          </li>
        ))}
        {selected.length === 0 ? <li className="text-sm text-neutral-500">No runs selected.</li> : null}
      </ul>
      <div className="flex flex-wrap items-center gap-2">
        <label className="flex min-w-0 max-w-full flex-1 items-center gap-2 text-sm text-neutral-700 sm:flex-none">
          <span className="shrink-0">Add run</span>
          <select
            className="w-full min-w-0 max-w-full rounded-md sm:w-auto sm:max-w-[36rem] border border-neutral-300 bg-white px-2 py-1.5 text-sm shadow-sm disabled:opacity-50"
            value=""
            disabled={full || pending}
            onChange={(e) => {
              if (e.target.value) go([...selected, e.target.value]);
            }}
            data-testid="add-run"
          >
            <option value="">{full ? `At most ${max} runs` : "Choose a run…"}</option>
            {[...groups].map(([g, opts]) => (
              <optgroup key={g} label={g}>
                {opts.map((o) => (
                  <option key={o.key} value={o.key}>
                    {o.model} — {o.key} ({o.items} items)
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        {selected.length > 0 ? (
          <button
            type="button"
            onClick={() => go([])}
            className="text-sm text-neutral-500 underline-offset-2 hover:text-neutral-800 hover:underline"
          >
            Clear
          </button>
        ) : null}
        {pending ? <span className="text-xs text-neutral-500">Loading…</span> : null}
      </div>
    </div>
  );
}
