import { Card } from "@/components/ui/card";
import { fmtValue } from "@/components/ui/format";
import type { GenerationDetail } from "@/lib/queries/generation";
import { TraceDiff } from "./trace-diff";

// The aligned trace diff: one row per reference step, the model's claim beside the
// reference value. Not the generic DataTable: this is a fixed, anchored diff (every row
// has a #step-J id and the first divergence is marked), not a sortable data grid. The rows
// are rendered by a windowed client component; this part picks what it needs.

/** In the trace diff's place when its steps cannot be read: the page's other parts stand. */
export function StepsUnavailable({ reason }: { reason: string }) {
  return (
    <Card id="trace" title="Trace diff">
      <p role="alert" data-testid="steps-error" className="text-sm text-red-800">
        The steps of this generation cannot be shown: {reason}.
      </p>
    </Card>
  );
}

export function StepTable({ detail }: { detail: GenerationDetail }) {
  const { steps, firstDivergence, analysis } = detail;
  const revised: Record<number, string[]> = {};
  for (const r of analysis.revised) (revised[r.step] ??= []).push(fmtValue(r.value));

  return (
    <Card
      id="trace"
      title="Trace diff"
      description="Reference execution beside the model's claimed values. Rows link to their place in the raw output."
    >
      {/* one instance per generation: its window, measured row height and target are that trace's */}
      <TraceDiff
        key={`${detail.run.key}\u0000${detail.item.id}\u0000${detail.epoch}`}
        steps={steps}
        extras={analysis.extras.map((x) => ({ step: x.step, value: fmtValue(x.value) }))}
        firstDivergence={firstDivergence}
        revised={revised}
        showOps={steps.some((s) => s.operation !== null)}
        length={detail.item.length}
      />
    </Card>
  );
}
