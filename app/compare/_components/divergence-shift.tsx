import { fmtNum } from "@/components/ui/format";
import type { PairSummary } from "@/lib/queries/compare";

function signed(x: number | null): string {
  if (x == null) return "—";
  return (x > 0 ? "+" : x < 0 ? "−" : "±") + fmtNum(Math.abs(x), 1);
}

/** First-divergence shift B − A over items where both runs leave the reference. */
export function DivergenceShift({ d }: { d: PairSummary["divergence"] }) {
  if (d.n === 0) return <p className="text-sm text-neutral-500">No item diverges in both runs, so there is no shift to measure.</p>;
  return (
    <div data-testid="divergence-shift">
      <dl className="tabular grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs text-neutral-500">Mean shift (B − A)</dt>
          <dd className="text-base font-semibold">{signed(d.mean)} steps</dd>
        </div>
        <div>
          <dt className="text-xs text-neutral-500">Median shift</dt>
          <dd className="text-base font-semibold">{signed(d.median)} steps</dd>
        </div>
        <div>
          <dt className="text-xs text-neutral-500">Items diverging in both</dt>
          <dd className="text-base font-semibold">{d.n}</dd>
        </div>
        <div>
          <dt className="text-xs text-neutral-500">B earlier · same · later</dt>
          <dd className="text-base font-semibold">
            {d.earlier} · {d.same} · {d.later}
          </dd>
        </div>
      </dl>
      <p className="mt-2 text-xs text-neutral-500">Negative: B leaves the reference execution earlier than A on the same item.</p>
    </div>
  );
}
