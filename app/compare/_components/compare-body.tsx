import { SegmentedLinks } from "@/components/charts/controls/segmented-links";
import { Card } from "@/components/ui/card";
import type { CompareData } from "@/lib/queries/compare";
import { compareHref, type CompareParams } from "@/lib/url/compare";
import { DivergenceShift } from "./divergence-shift";
import { ItemList } from "./item-list";
import { LengthDeltas } from "./length-deltas";
import { PairedTable } from "./paired-table";
import { PairOverview } from "./pair-overview";

/** Everything below the picker once two or more runs are selected. */
export function CompareBody({ data, p }: { data: CompareData; p: CompareParams }) {
  const keys = data.runs.map((r) => r.key);
  const pair = data.pairs[data.items.pair - 1];
  const a = data.runs[0];
  const b = data.runs[pair.index];
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <SegmentedLinks
        label="Outcome"
        testId="toggle-compare-answer"
        current={p.answer}
        options={[
          { id: "first", label: "First answer", href: compareHref({ ...p, runs: keys, answer: "first", page: 1 }) },
          { id: "last", label: "Last answer", href: compareHref({ ...p, runs: keys, answer: "last", page: 1 }) },
        ]}
      />
      {data.pairs.length > 1 ? (
        <Card title="Against the baseline" description={`Every run paired with ${a.label} on their shared items.`}>
          <PairOverview data={data} p={p} runKeys={keys} />
        </Card>
      ) : null}
      {!pair.sameVariant || pair.onlyA > 0 || pair.onlyB > 0 || pair.mismatched > 0 ? (
        <div
          role="alert"
          className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
          data-testid="item-set-warning"
        >
          <strong className="font-semibold">The runs&apos; items differ.</strong> {pair.onlyA} item{pair.onlyA === 1 ? "" : "s"} only in A,{" "}
          {pair.onlyB} only in B{pair.mismatched ? `, ${pair.mismatched} with the same id but a different length (left out)` : ""}; the
          comparison uses the {pair.shared} shared items.
          {!pair.sameVariant
            ? ` A is ${a.benchmark} / ${a.variant}, B is ${b.benchmark} / ${b.variant}: the same item id may not be the same procedure.`
            : ""}
        </div>
      ) : null}
      <Card title={`A: ${a.label}  vs  B: ${b.label}`} description={`${a.key}  ·  ${b.key}`}>
        {pair.shared === 0 ? (
          <p className="text-sm text-neutral-600">These runs share no items, so there is nothing to pair.</p>
        ) : (
          <PairedTable pair={pair} labelA={a.label} labelB={b.label} />
        )}
      </Card>
      {pair.shared > 0 ? (
        <div className="grid min-w-0 grid-cols-1 items-start gap-4 lg:grid-cols-2 [&>*]:min-w-0">
          <Card title="First-divergence shift">
            <DivergenceShift d={pair.divergence} />
          </Card>
          <Card title="Per-length accuracy">
            <LengthDeltas rows={pair.byLength} />
          </Card>
        </div>
      ) : null}
      {pair.shared > 0 ? (
        <Card title="Items" description="Regressions (A right, B wrong) first; each item links to both generations.">
          <ItemList items={data.items} a={{ key: a.key, label: a.label }} b={{ key: b.key, label: b.label }} p={p} runKeys={keys} />
        </Card>
      ) : null}
    </div>
  );
}
