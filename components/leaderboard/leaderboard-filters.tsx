"use client";

import { Link } from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { CONTROL, Field } from "@/components/ui/field";
import { FilterField } from "@/components/ui/filter-field";
import type { LeaderboardFilterOptions } from "@/lib/queries/leaderboard";
import { leaderboardFilterHref, leaderboardHref, type LeaderboardParams } from "@/lib/url/leaderboard";

/**
 * The leaderboard's search and filter bar. It only writes the URL: selects apply at once, the
 * search and number fields on Enter or "Apply"; the server page re-renders from the new URL.
 * On a phone the filters fold under a "Filters" button (that alone is not URL state: it
 * changes no result), the search stays in view.
 */
export function LeaderboardFilters({
  params,
  options,
  at,
  hiddenDemo,
}: {
  params: LeaderboardParams;
  options: LeaderboardFilterOptions;
  at: number[];
  hiddenDemo: number;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const go = (change: Partial<LeaderboardParams>) => router.push(leaderboardFilterHref(params, change), { scroll: false });
  const variants = options.variants.filter((v) => !params.benchmark || v.benchmark === params.benchmark);

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const num = (k: string) => {
      const v = String(f.get(k) ?? "").trim();
      return v === "" || !Number.isFinite(Number(v)) ? undefined : Number(v);
    };
    const atList = String(f.get("at") ?? "")
      .split(/[\s,]+/)
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0);
    const q = String(f.get("q") ?? "").trim();
    go({ q: q || undefined, minSize: num("minSize"), maxSize: num("maxSize"), at: atList.length ? atList : undefined });
  }

  const active = [params.variant, params.family, params.thinking, params.minSize, params.maxSize, params.at].filter(
    (v) => v !== undefined,
  ).length;

  return (
    <form onSubmit={onSubmit} aria-label="Leaderboard filters" className="mb-3 rounded-lg border border-neutral-200 bg-white p-3 shadow-sm">
      <div className="flex flex-wrap items-end gap-2">
        <Field label="Search runs" htmlFor="f-q" className="min-w-0 flex-1 basis-48">
          <input
            id="f-q"
            name="q"
            type="search"
            placeholder="model, run key or variant"
            className={CONTROL}
            defaultValue={params.q ?? ""}
            key={`q${params.q ?? ""}`}
          />
        </Field>
        <button
          type="button"
          className="rounded-md border border-neutral-300 px-3 py-1.5 text-sm font-medium text-neutral-700 sm:hidden"
          aria-expanded={open}
          aria-controls="leaderboard-filter-fields"
          onClick={() => setOpen(!open)}
        >
          Filters{active ? ` (${active})` : ""}
        </button>
        <button type="submit" className="rounded-md bg-neutral-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-neutral-700">
          Apply
        </button>
        <Link
          href={leaderboardHref({ benchmark: params.benchmark, demo: params.demo })}
          className="rounded-md px-2 py-1.5 text-sm text-neutral-600 hover:text-neutral-900"
        >
          Reset
        </Link>
      </div>
      <div
        id="leaderboard-filter-fields"
        className={`${open ? "grid" : "hidden"} mt-3 grid-cols-2 gap-3 sm:grid sm:grid-cols-3 lg:grid-cols-6`}
      >
        <FilterField
          label="Variant"
          id="f-variant"
          value={params.variant}
          select={{ any: "All", options: [...new Set(variants.map((v) => v.name))], onPick: (v) => go({ variant: v || undefined }) }}
        />
        <FilterField
          label="Model family"
          id="f-family"
          value={params.family}
          select={{ any: "All", options: options.families, onPick: (v) => go({ family: v || undefined }) }}
        />
        <FilterField
          label="Thinking"
          id="f-thinking"
          value={params.thinking}
          select={{
            any: "Any",
            options: [
              { value: "yes", label: "Thinking" },
              { value: "no", label: "Not thinking" },
            ],
            onPick: (v) => go({ thinking: (v || undefined) as LeaderboardParams["thinking"] }),
          }}
        />
        <FilterField
          label="Min size (B)"
          id="f-min"
          value={params.minSize}
          input={{ name: "minSize", type: "number", min: 0, step: "any", inputMode: "decimal" }}
        />
        <FilterField
          label="Max size (B)"
          id="f-max"
          value={params.maxSize}
          input={{ name: "maxSize", type: "number", min: 0, step: "any", inputMode: "decimal" }}
        />
        <FilterField
          label="Accuracy at lengths"
          id="f-at"
          value={at.join(",")}
          input={{ name: "at", type: "text", inputMode: "numeric", placeholder: "5,25,95" }}
        />
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-neutral-600">
        {hiddenDemo > 0 ? (
          <span data-testid="demo-hidden">
            {hiddenDemo} demo run{hiddenDemo === 1 ? "" : "s"} hidden now that real runs exist.{" "}
            <Link href={leaderboardFilterHref(params, { demo: true })} className="text-sky-800 underline">
              Show demo runs
            </Link>
          </span>
        ) : params.demo ? (
          <Link href={leaderboardFilterHref(params, { demo: false })} className="text-sky-800 underline">
            Hide demo runs
          </Link>
        ) : null}
      </div>
    </form>
  );
}
