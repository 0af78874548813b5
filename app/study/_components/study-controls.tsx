import { SegmentedLinks } from "@/components/charts/controls/segmented-links";
import type { StudyOptions } from "@/lib/queries/study";
import { FACTOR_LABELS, metricLabel, STUDY_METRICS, STUDY_SERIES } from "@/lib/study/definitions";
import { studyHref, type StudyParams } from "@/lib/url/study";

// Controls of /study. Benchmark, x and series are links; the metric and the run filters are a
// plain GET form, so every choice lands in the URL and works without JavaScript.

const field = "rounded-md border border-neutral-300 bg-white px-2 py-1 text-sm";

function Choice({
  name,
  label,
  value,
  options,
  labels = {},
  none = "any",
}: {
  name: string;
  label: string;
  value: string | number | undefined;
  options: (string | number)[];
  labels?: Record<string, string>;
  none?: string;
}) {
  return (
    <label className="flex flex-col gap-0.5 text-xs text-neutral-600">
      {label}
      <select name={name} defaultValue={value === undefined ? "" : String(value)} className={field}>
        <option value="">{none}</option>
        {options.map((o) => (
          <option key={String(o)} value={String(o)}>
            {labels[String(o)] ?? String(o)}
          </option>
        ))}
      </select>
    </label>
  );
}

export function StudyControls({ p, benchmark, options }: { p: StudyParams; benchmark: string; options: StudyOptions }) {
  const at = (change: Partial<StudyParams>) => studyHref({ ...p, benchmark, cs: undefined, cx: undefined, ...change });
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-3">
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        <div className="max-w-full overflow-x-auto pb-1">
          <SegmentedLinks
            label="Benchmark"
            testId="study-benchmark"
            current={benchmark}
            options={options.benchmarks.map((b) => ({
              id: b.name,
              label: `${b.name} (${b.runs})`,
              href: studyHref({ benchmark: b.name }),
            }))}
          />
        </div>
        <div className="max-w-full overflow-x-auto pb-1">
          <SegmentedLinks
            label="Series"
            testId="study-series"
            current={p.series}
            options={STUDY_SERIES.map((s) => ({ id: s, label: s === "all" ? "all models" : s, href: at({ series: s }) }))}
          />
        </div>
      </div>
      <div className="max-w-full overflow-x-auto pb-1">
        <SegmentedLinks
          label="x"
          testId="study-x"
          current={p.x}
          options={options.factors.map((f) => ({ id: f, label: FACTOR_LABELS[f], href: at({ x: f }) }))}
        />
      </div>
      <form method="get" action="/study" className="flex flex-wrap items-end gap-3" data-testid="study-filters">
        <input type="hidden" name="benchmark" value={benchmark} />
        <input type="hidden" name="x" value={p.x} />
        <input type="hidden" name="series" value={p.series} />
        <label className="flex flex-col gap-0.5 text-xs text-neutral-600">
          Metric
          <select name="metric" defaultValue={p.metric} className={field}>
            {STUDY_METRICS.map((m) => (
              <option key={m} value={m}>
                {metricLabel(m)}
              </option>
            ))}
          </select>
        </label>
        <Choice name="models" label="Model" value={p.models?.join(",")} options={options.models} />
        <Choice name="families" label="Family" value={p.families?.join(",")} options={options.families} />
        <label className="flex flex-col gap-0.5 text-xs text-neutral-600">
          Size ≥ (B)
          <input name="minSize" type="number" min="0" step="any" defaultValue={p.minSize} className={`${field} w-20`} />
        </label>
        <label className="flex flex-col gap-0.5 text-xs text-neutral-600">
          Size ≤ (B)
          <input name="maxSize" type="number" min="0" step="any" defaultValue={p.maxSize} className={`${field} w-20`} />
        </label>
        <Choice name="thinking" label="Thinking" value={p.thinking} options={["yes", "no"]} />
        {options.lookbacks.length ? <Choice name="lookback" label="Look-back" value={p.lookback} options={options.lookbacks} /> : null}
        {options.inputRanges.length ? (
          <Choice name="inputRange" label="Input range" value={p.inputRange} options={options.inputRanges} />
        ) : null}
        {options.ops.length ? <Choice name="ops" label="Operations" value={p.ops} options={options.ops} /> : null}
        {options.dictSizes.length ? (
          <Choice name="dictSize" label="Dictionary size" value={p.dictSize} options={options.dictSizes} />
        ) : null}
        {options.ks.length ? <Choice name="k" label="K" value={p.k} options={options.ks} /> : null}
        {options.turnModes.length ? <Choice name="turnMode" label="Turns" value={p.turnMode} options={options.turnModes} /> : null}
        <Choice
          name="demo"
          label="Demo runs"
          value={p.demo}
          options={["all", "yes", "no"]}
          labels={{ all: "included", yes: "only", no: "left out" }}
          none="left out if real runs exist"
        />
        <button type="submit" className="rounded-md bg-neutral-800 px-3 py-1.5 text-sm font-medium text-white hover:bg-neutral-700">
          Apply
        </button>
      </form>
    </div>
  );
}
