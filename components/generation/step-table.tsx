import { Card } from "@/components/ui/card";
import { fmtValue } from "@/components/ui/format";
import { STATUS_STYLE, StatusBadge } from "@/components/ui/status-badge";
import type { GenerationDetail } from "@/lib/queries/generation";
import { stepAnchor } from "@/lib/url/generation";
import { OperationText, StepExplanation } from "./step-detail";

// The aligned trace diff: one row per reference step, the model's claim beside the
// reference value. Not the generic DataTable: this is a fixed, anchored diff (every row
// has a #step-J id and the first divergence is marked), not a sortable data grid.

export function StepTable({ detail }: { detail: GenerationDetail }) {
  const { steps, firstDivergence, analysis } = detail;
  const showOps = steps.some((s) => s.operation !== null);
  const revisedBy = new Map<number, string[]>();
  for (const r of analysis.revised) revisedBy.set(r.step, [...(revisedBy.get(r.step) ?? []), fmtValue(r.value)]);

  return (
    <Card id="trace" title="Trace diff" description="Reference execution beside the model's claimed values. Rows link to their place in the raw output.">
      <div className="-mx-4 -my-4 overflow-x-auto">
        <table className="tabular min-w-full text-sm" data-testid="step-table">
          <caption className="sr-only">Reference steps aligned with the model&apos;s claimed steps</caption>
          <thead className="bg-neutral-50 text-left text-xs font-semibold tracking-wide text-neutral-600 uppercase">
            <tr>
              <th scope="col" className="px-3 py-2 text-right">Step</th>
              {showOps ? <th scope="col" className="px-3 py-2">Operation</th> : null}
              <th scope="col" className="px-3 py-2 text-right">Reference</th>
              <th scope="col" className="px-3 py-2 text-right">Model</th>
              <th scope="col" className="px-3 py-2">Status</th>
              <th scope="col" className="px-3 py-2">Detail</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-neutral-100">
            {steps.map((s) => {
              const first = s.step === firstDivergence;
              const revised = revisedBy.get(s.step);
              return (
                <tr
                  key={s.step}
                  id={stepAnchor(s.step)}
                  data-status={s.status}
                  data-first-divergence={first ? "true" : undefined}
                  className={`${STATUS_STYLE[s.status].row} ${first ? "outline-2 -outline-offset-2 outline-red-600" : ""}`}
                >
                  <td className="px-3 py-1.5 text-right whitespace-nowrap">
                    <a href={"#" + stepAnchor(s.step)} className="font-mono text-xs text-neutral-500 hover:text-neutral-900 hover:underline" aria-label={`Link to step ${s.step}`}>
                      {s.step}
                    </a>
                  </td>
                  {showOps ? (
                    <td className="px-3 py-1.5 whitespace-nowrap text-neutral-700">
                      <OperationText step={s} />
                    </td>
                  ) : null}
                  <td className="px-3 py-1.5 text-right font-mono text-xs whitespace-nowrap">{fmtValue(s.expected)}</td>
                  <td className="px-3 py-1.5 text-right font-mono text-xs whitespace-nowrap">
                    {s.claimed === null ? (
                      <span className="text-neutral-400">—</span>
                    ) : s.span ? (
                      <a href={`#claim-${s.step}`} className="hover:underline" title="Show in the raw output">
                        {fmtValue(s.claimed)}
                      </a>
                    ) : (
                      fmtValue(s.claimed)
                    )}
                  </td>
                  <td className="px-3 py-1.5 whitespace-nowrap">
                    <span className="inline-flex flex-wrap items-center gap-1">
                      <StatusBadge status={s.status} />
                      {revised ? <StatusBadge status="revised" /> : null}
                      {first ? <span className="rounded bg-red-600 px-1.5 py-0.5 text-[11px] font-semibold text-white">first divergence</span> : null}
                    </span>
                  </td>
                  <td className="px-3 py-1.5 text-xs">
                    <StepExplanation step={s} />
                    {revised ? <div className="text-sky-900">later restated as {revised.map((v, i) => <span key={i} className="font-mono">{i ? ", " : ""}{v}</span>)}</div> : null}
                  </td>
                </tr>
              );
            })}
            {analysis.extras.map((x, i) => (
              <tr key={`extra-${i}`} id={`extra-${i + 1}`} className={STATUS_STYLE.extra.row} data-status="extra">
                <td className="px-3 py-1.5 text-right font-mono text-xs text-neutral-500">{x.step}</td>
                {showOps ? <td className="px-3 py-1.5 text-neutral-500">outside 1..{detail.item.length}</td> : null}
                <td className="px-3 py-1.5 text-right text-neutral-400">—</td>
                <td className="px-3 py-1.5 text-right font-mono text-xs">{fmtValue(x.value)}</td>
                <td className="px-3 py-1.5"><StatusBadge status="extra" /></td>
                <td className="px-3 py-1.5 text-xs text-violet-900">a step the procedure does not have</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
