import { fmtPct } from "@/components/ui/format";
import type { PairSummary } from "@/lib/queries/compare";

/** Per-length accuracy of A and B on their shared items, with the difference drawn as a bar. */
export function LengthDeltas({ rows }: { rows: PairSummary["byLength"] }) {
  const maxAbs = Math.max(0.05, ...rows.map((r) => Math.abs(r.delta)));
  return (
    <table className="tabular w-full text-sm" data-testid="length-deltas">
      <caption className="mb-1 text-left text-xs text-neutral-500">Accuracy by length on shared items (B − A)</caption>
      <thead>
        <tr className="border-b border-neutral-200 text-xs text-neutral-500">
          <th scope="col" className="py-1 pr-3 text-left font-medium">
            Length
          </th>
          <th scope="col" className="px-3 py-1 text-right font-medium">
            n
          </th>
          <th scope="col" className="px-3 py-1 text-right font-medium">
            A
          </th>
          <th scope="col" className="px-3 py-1 text-right font-medium">
            B
          </th>
          <th scope="col" className="px-3 py-1 text-right font-medium">
            Δ
          </th>
          <th scope="col" className="w-1/3 py-1 pl-3 font-medium">
            <span className="sr-only">Difference bar</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => {
          const w = (Math.abs(r.delta) / maxAbs) * 50;
          return (
            <tr key={r.length} className="border-b border-neutral-100 last:border-0">
              <td className="py-1 pr-3">{r.length}</td>
              <td className="px-3 py-1 text-right text-neutral-500">{r.n}</td>
              <td className="px-3 py-1 text-right">{fmtPct(r.accA)}</td>
              <td className="px-3 py-1 text-right">{fmtPct(r.accB)}</td>
              <td
                className={`px-3 py-1 text-right font-medium ${r.delta < 0 ? "text-red-700" : r.delta > 0 ? "text-emerald-700" : "text-neutral-500"}`}
              >
                {r.delta > 0 ? "+" : r.delta < 0 ? "−" : "±"}
                {Math.abs(r.delta * 100).toFixed(0)} pts
              </td>
              <td className="py-1 pl-3" aria-hidden="true">
                <div className="relative h-3 w-full">
                  <div className="absolute top-0 left-1/2 h-3 w-px bg-neutral-300" />
                  <div
                    className={`absolute top-0.5 h-2 rounded-sm ${r.delta < 0 ? "bg-red-400" : "bg-emerald-500"}`}
                    style={r.delta < 0 ? { right: "50%", width: `${w}%` } : { left: "50%", width: `${w}%` }}
                  />
                </div>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
