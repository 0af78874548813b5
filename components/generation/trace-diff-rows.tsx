import { fmtValue } from "@/components/ui/format";
import { STATUS_STYLE, StatusBadge } from "@/components/ui/status-badge";
import { TableCell, TableRow } from "@/components/table/table";
import type { GenerationStep } from "@/lib/queries/generation";
import { stepAnchor } from "@/lib/url/step-anchor";
import { OperationText, StepExplanation } from "./step-detail";

// The rows of the trace diff: one per reference step, then one per claimed step the procedure
// does not have. aria-rowindex (index + 2, the header being 1) is how the windowing finds them.

export interface TraceExtraRow {
  step: number;
  value: string;
}

export function ExtraRow({
  index,
  extra,
  row,
  showOps,
  length,
}: {
  index: number;
  extra: number;
  row: TraceExtraRow;
  showOps: boolean;
  length: number;
}) {
  return (
    <TableRow id={`extra-${extra + 1}`} aria-rowindex={index + 2} className={STATUS_STYLE.extra.row} data-status="extra">
      <TableCell className="text-right font-mono text-xs text-neutral-500">{row.step}</TableCell>
      {showOps ? <TableCell className="hidden text-neutral-500 md:table-cell">outside 1..{length}</TableCell> : null}
      <TableCell className="hidden text-right text-neutral-400 sm:table-cell">—</TableCell>
      <TableCell className="text-right font-mono text-xs">{row.value}</TableCell>
      <TableCell>
        <StatusBadge status="extra" />
      </TableCell>
      <TableCell className="min-w-20 text-xs whitespace-normal text-violet-900 sm:min-w-40">a step the procedure does not have</TableCell>
    </TableRow>
  );
}

export function StepRow({
  s,
  index,
  first,
  targeted,
  revised,
  showOps,
}: {
  s: GenerationStep;
  index: number;
  first: boolean;
  targeted: boolean;
  revised?: string[];
  showOps: boolean;
}) {
  return (
    <TableRow
      id={stepAnchor(s.step)}
      aria-rowindex={index + 2}
      data-status={s.status}
      data-first-divergence={first ? "true" : undefined}
      data-targeted={targeted ? "true" : undefined}
      className={`${STATUS_STYLE[s.status].row} ${first ? "outline-2 -outline-offset-2 outline-red-600" : ""}`}
    >
      <TableCell className="text-right">
        <a
          href={"#" + stepAnchor(s.step)}
          className="font-mono text-xs text-neutral-500 hover:text-neutral-900 hover:underline"
          aria-label={`Link to step ${s.step}`}
        >
          {s.step}
        </a>
      </TableCell>
      {showOps ? (
        <TableCell className="hidden text-neutral-700 md:table-cell">
          <OperationText step={s} />
        </TableCell>
      ) : null}
      <TableCell className="hidden text-right font-mono text-xs sm:table-cell">{fmtValue(s.expected)}</TableCell>
      <TableCell className="text-right font-mono text-xs">
        {s.claimed === null ? (
          <span className="text-neutral-400">—</span>
        ) : s.span ? (
          <a href={`#claim-${s.step}`} className="hover:underline" title="Show in the raw output">
            {fmtValue(s.claimed)}
          </a>
        ) : (
          fmtValue(s.claimed)
        )}
        {/* a phone has no Reference column: a wrong value shows the reference under it */}
        {s.status !== "correct" ? <span className="block text-neutral-500 sm:hidden">ref {fmtValue(s.expected)}</span> : null}
      </TableCell>
      <TableCell>
        <span className="flex max-w-32 flex-wrap items-center gap-1">
          <StatusBadge status={s.status} />
          {revised ? <StatusBadge status="revised" /> : null}
          {first ? (
            <span className="rounded bg-red-600 px-1.5 py-0.5 text-[11px] font-semibold text-white">
              first<span className="hidden sm:inline"> divergence</span>
            </span>
          ) : null}
        </span>
      </TableCell>
      <TableCell className="min-w-20 text-xs whitespace-normal sm:min-w-40">
        <StepExplanation step={s} />
        {revised ? (
          <span className="block text-sky-900">
            later restated as{" "}
            {revised.map((v, i) => (
              <span key={i} className="font-mono">
                {i ? ", " : ""}
                {v}
              </span>
            ))}
          </span>
        ) : null}
      </TableCell>
    </TableRow>
  );
}
