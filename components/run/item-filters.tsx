"use client";

import { Link } from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { FilterField } from "@/components/ui/filter-field";
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
      <FilterField
        label="Failure mode"
        id="i-mode"
        value={params.mode}
        select={{
          any: "Any",
          options: FAILURE_MODES.map((m) => ({ value: m, label: MODE_LABEL[m] })),
          onPick: (v) => go({ mode: (v || undefined) as RunParams["mode"] }),
        }}
      />
      <FilterField
        label="Divergence kind"
        id="i-kind"
        value={params.kind}
        disabled={!hasSteps}
        select={{
          any: "Any",
          options: ["slip", "propagated", "missing"],
          onPick: (v) => go({ kind: (v || undefined) as RunParams["kind"] }),
        }}
      />
      <FilterField
        label="Min length"
        id="i-min"
        value={params.minLen}
        select={{ any: "Any", options: lengths, onPick: (v) => go({ minLen: lenValue(v) }) }}
      />
      <FilterField
        label="Max length"
        id="i-max"
        value={params.maxLen}
        select={{ any: "Any", options: lengths, onPick: (v) => go({ maxLen: lenValue(v) }) }}
      />
      <FilterField
        label="First divergence"
        id="i-div"
        value={params.div}
        disabled={!hasSteps}
        input={{ name: "div", placeholder: "7, 5-10, none" }}
      />
      <FilterField label="Search in outputs" id="i-q" value={params.q} input={{ name: "q", type: "search", placeholder: "text…" }} />
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
