"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { CONTROL, Field } from "@/components/ui/field";
import { MODE_LABEL } from "@/components/ui/status-badge";
import { FAILURE_MODES } from "@/lib/analysis/types";
import { runHref, runItemsHref, type RunParams } from "@/lib/url/run";

/**
 * Filters of the item table. Writes the URL only: toggles and selects apply at once, the
 * text fields (first divergence, search) on Enter or "Apply".
 */
export function ItemFilters({
  runKey,
  params,
  lengths,
  hasSteps,
}: {
  runKey: string;
  params: RunParams;
  lengths: number[];
  hasSteps: boolean;
}) {
  const router = useRouter();
  const go = (change: Partial<RunParams>) => router.push(runItemsHref(runKey, params, change), { scroll: false });
  const lenValue = (v: string) => (v === "" ? undefined : Number(v));

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (k: string) => String(f.get(k) ?? "").trim() || undefined;
    go({ div: text("div"), q: text("q") });
  }

  return (
    <form
      onSubmit={onSubmit}
      aria-label="Item filters"
      className="mb-3 grid grid-cols-2 gap-3 rounded-lg border border-neutral-200 bg-white p-3 shadow-sm sm:grid-cols-4 lg:grid-cols-8"
    >
      <div className="col-span-2 flex items-end sm:col-span-1">
        <label className="inline-flex items-center gap-2 py-1.5 text-sm font-medium text-neutral-800">
          <input
            type="checkbox"
            name="failed"
            className="h-4 w-4 rounded border-neutral-300 accent-neutral-900"
            defaultChecked={params.failed}
            key={`failed-${params.failed}`}
            onChange={(e) => go({ failed: e.target.checked })}
            data-testid="filter-failed"
          />
          Failed only
        </label>
      </div>
      <Field label="Failure mode" htmlFor="i-mode">
        <select
          id="i-mode"
          className={CONTROL}
          defaultValue={params.mode ?? ""}
          key={`mode-${params.mode ?? ""}`}
          onChange={(e) => go({ mode: (e.target.value || undefined) as RunParams["mode"] })}
        >
          <option value="">Any</option>
          {FAILURE_MODES.map((m) => (
            <option key={m} value={m}>
              {MODE_LABEL[m]}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Divergence kind" htmlFor="i-kind">
        <select
          id="i-kind"
          className={CONTROL}
          disabled={!hasSteps}
          defaultValue={params.kind ?? ""}
          key={`kind-${params.kind ?? ""}`}
          onChange={(e) => go({ kind: (e.target.value || undefined) as RunParams["kind"] })}
        >
          <option value="">Any</option>
          <option value="slip">slip</option>
          <option value="propagated">propagated</option>
          <option value="missing">missing</option>
        </select>
      </Field>
      <Field label="Min length" htmlFor="i-min">
        <select
          id="i-min"
          className={CONTROL}
          defaultValue={params.minLen ?? ""}
          key={`minLen-${params.minLen ?? ""}`}
          onChange={(e) => go({ minLen: lenValue(e.target.value) })}
        >
          <option value="">Any</option>
          {lengths.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Max length" htmlFor="i-max">
        <select
          id="i-max"
          className={CONTROL}
          defaultValue={params.maxLen ?? ""}
          key={`maxLen-${params.maxLen ?? ""}`}
          onChange={(e) => go({ maxLen: lenValue(e.target.value) })}
        >
          <option value="">Any</option>
          {lengths.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </Field>
      <Field label="First divergence" htmlFor="i-div">
        <input
          id="i-div"
          name="div"
          placeholder="7, 5-10, none"
          className={CONTROL}
          disabled={!hasSteps}
          defaultValue={params.div ?? ""}
          key={`div${params.div}`}
        />
      </Field>
      <Field label="Search in outputs" htmlFor="i-q">
        <input id="i-q" name="q" type="search" placeholder="text…" className={CONTROL} defaultValue={params.q ?? ""} key={`q${params.q}`} />
      </Field>
      <div className="flex items-end gap-2">
        <button type="submit" className="rounded-md bg-neutral-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-neutral-700">
          Apply
        </button>
        <Link href={runHref(runKey, { tab: "items" })} className="rounded-md px-2 py-1.5 text-sm text-neutral-600 hover:text-neutral-900">
          Reset
        </Link>
      </div>
    </form>
  );
}
