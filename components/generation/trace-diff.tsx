"use client";

import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/table/table";
import type { GenerationStep } from "@/lib/queries/generation";
import { ExtraRow, StepRow, type TraceExtraRow } from "./trace-diff-rows";
import { useRowWindow } from "./use-row-window";

// The aligned trace diff: reference steps beside the model's claimed steps. Long traces are
// windowed (use-row-window.ts); the DETAIL column wraps, since the explanation of a slip is the
// point of the page and must not sit beyond a sideways scroll.

export function TraceDiff({
  steps,
  extras,
  firstDivergence,
  revised,
  showOps,
  length,
}: {
  steps: GenerationStep[];
  extras: TraceExtraRow[];
  firstDivergence: number | null;
  /** later restatements of a step's value, formatted */
  revised: Record<number, string[]>;
  showOps: boolean;
  length: number;
}) {
  const total = steps.length + extras.length;
  const { win, target, virtual, attach, sync } = useRowWindow(total, steps.length, firstDivergence);
  const { start, end, above, below } = win; // rows [0, total) throughout when the trace is not windowed
  const cols = showOps ? 6 : 5;
  const rows: React.ReactNode[] = [];
  for (let i = start; i < end; i++) {
    if (i < steps.length)
      rows.push(
        <StepRow
          key={steps[i].step}
          index={i}
          s={steps[i]}
          first={steps[i].step === firstDivergence}
          targeted={steps[i].step === target}
          revised={revised[steps[i].step]}
          showOps={showOps}
        />,
      );
    else {
      const k = i - steps.length;
      rows.push(<ExtraRow key={`extra-${k}`} index={i} extra={k} row={extras[k]} showOps={showOps} length={length} />);
    }
  }

  return (
    <div
      ref={attach}
      onScroll={virtual ? sync : undefined}
      data-trace-diff={virtual ? "windowed" : "whole"}
      className={`-mx-4 -my-4 overflow-x-auto ${virtual ? "max-h-[70vh] overflow-y-auto overscroll-contain xl:max-h-[calc(100vh-10rem)]" : ""}`}
    >
      <Table density="compact" className="w-full whitespace-nowrap" data-testid="step-table" aria-rowcount={total + 1}>
        <TableCaption>Reference steps aligned with the model&apos;s claimed steps</TableCaption>
        <TableHeader className="sticky top-0 z-10 bg-neutral-50 shadow-[0_1px_0_var(--color-neutral-200)]">
          <TableRow aria-rowindex={1}>
            <TableHead align="right">
              <abbr title="Step" className="no-underline sm:hidden">
                #
              </abbr>
              <span className="hidden sm:inline">Step</span>
            </TableHead>
            {showOps ? <TableHead className="hidden md:table-cell">Operation</TableHead> : null}
            <TableHead align="right" className="hidden sm:table-cell">
              Reference
            </TableHead>
            <TableHead align="right">Model</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="w-full">Detail</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody className="divide-y divide-neutral-100">
          {start > 0 ? (
            <TableRow aria-hidden="true" style={{ height: above }}>
              <TableCell colSpan={cols} />
            </TableRow>
          ) : null}
          {rows}
          {end < total ? (
            <TableRow aria-hidden="true" style={{ height: below }}>
              <TableCell colSpan={cols} />
            </TableRow>
          ) : null}
        </TableBody>
      </Table>
    </div>
  );
}
