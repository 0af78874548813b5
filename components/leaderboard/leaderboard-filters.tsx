"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { CONTROL, Field } from "@/components/ui/field";
import type { LeaderboardFilterOptions } from "@/lib/queries/leaderboard";
import { leaderboardFilterHref, leaderboardHref, type LeaderboardParams } from "@/lib/url/leaderboard";

/**
 * The leaderboard's filter bar. It only writes the URL: selects apply at once, the number
 * fields on Enter or "Apply"; the server page re-renders from the new URL.
 */
export function LeaderboardFilters({
  params,
  options,
  at,
}: {
  params: LeaderboardParams;
  options: LeaderboardFilterOptions;
  at: number[];
}) {
  const router = useRouter();
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
    go({ minSize: num("minSize"), maxSize: num("maxSize"), at: atList.length ? atList : undefined });
  }

  return (
    <form
      onSubmit={onSubmit}
      aria-label="Leaderboard filters"
      className="mb-4 grid grid-cols-2 gap-3 rounded-lg border border-neutral-200 bg-white p-3 shadow-sm sm:grid-cols-4 lg:grid-cols-8"
    >
      <Field label="Benchmark" htmlFor="f-benchmark">
        <select
          id="f-benchmark"
          className={CONTROL}
          defaultValue={params.benchmark ?? ""}
          key={`benchmark-${params.benchmark ?? ""}`}
          onChange={(e) => go({ benchmark: e.target.value || undefined, variant: undefined })}
        >
          <option value="">All</option>
          {options.benchmarks.map((b) => (
            <option key={b}>{b}</option>
          ))}
        </select>
      </Field>
      <Field label="Variant" htmlFor="f-variant">
        <select
          id="f-variant"
          className={CONTROL}
          defaultValue={params.variant ?? ""}
          key={`variant-${params.variant ?? ""}`}
          onChange={(e) => go({ variant: e.target.value || undefined })}
        >
          <option value="">All</option>
          {[...new Set(variants.map((v) => v.name))].map((v) => (
            <option key={v}>{v}</option>
          ))}
        </select>
      </Field>
      <Field label="Model family" htmlFor="f-family">
        <select
          id="f-family"
          className={CONTROL}
          defaultValue={params.family ?? ""}
          key={`family-${params.family ?? ""}`}
          onChange={(e) => go({ family: e.target.value || undefined })}
        >
          <option value="">All</option>
          {options.families.map((f) => (
            <option key={f}>{f}</option>
          ))}
        </select>
      </Field>
      <Field label="Thinking" htmlFor="f-thinking">
        <select
          id="f-thinking"
          className={CONTROL}
          defaultValue={params.thinking ?? ""}
          key={`thinking-${params.thinking ?? ""}`}
          onChange={(e) => go({ thinking: (e.target.value || undefined) as LeaderboardParams["thinking"] })}
        >
          <option value="">Any</option>
          <option value="yes">Thinking</option>
          <option value="no">Not thinking</option>
        </select>
      </Field>
      <Field label="Min size (B)" htmlFor="f-min">
        <input
          id="f-min"
          name="minSize"
          type="number"
          min={0}
          step="any"
          inputMode="decimal"
          className={CONTROL}
          defaultValue={params.minSize ?? ""}
          key={`min${params.minSize}`}
        />
      </Field>
      <Field label="Max size (B)" htmlFor="f-max">
        <input
          id="f-max"
          name="maxSize"
          type="number"
          min={0}
          step="any"
          inputMode="decimal"
          className={CONTROL}
          defaultValue={params.maxSize ?? ""}
          key={`max${params.maxSize}`}
        />
      </Field>
      <Field label="Accuracy at lengths" htmlFor="f-at">
        <input
          id="f-at"
          name="at"
          type="text"
          inputMode="numeric"
          placeholder="5,25,95"
          className={CONTROL}
          defaultValue={at.join(",")}
          key={`at${at.join(",")}`}
        />
      </Field>
      <div className="flex items-end gap-2">
        <button type="submit" className="rounded-md bg-neutral-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-neutral-700">
          Apply
        </button>
        <Link href={leaderboardHref({})} className="rounded-md px-2 py-1.5 text-sm text-neutral-600 hover:text-neutral-900">
          Reset
        </Link>
      </div>
    </form>
  );
}
