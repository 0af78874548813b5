import { fmtValue } from "@/components/ui/format";
import type { GenerationStep } from "@/lib/queries/generation";
import { opSign } from "@/lib/queries/step-operations";

/** What the step computes, e.g. "S4 − S2", "x", "+ alarm (88)". */
export function OperationText({ step }: { step: GenerationStep }) {
  const o = step.operation;
  if (!o) return <span className="text-neutral-400">—</span>;
  if (o.kind === "input") return <span>input {o.name}</span>;
  if (o.kind === "key")
    return (
      <span>
        + <span className="font-mono">{o.key}</span>
        {o.value !== null ? <span className="text-neutral-500"> ({o.value})</span> : null}
      </span>
    );
  return (
    <span className="font-mono">
      S{o.a} {opSign(o.op)} S{o.b}
    </span>
  );
}

/**
 * Why a wrong step is a slip or propagated: the operand values the model itself had and
 * what they give. A slip's recomputed value differs from its claim; a propagated step's matches.
 */
export function StepExplanation({ step }: { step: GenerationStep }) {
  if (step.status === "correct") return null;
  if (step.status === "missing") return <span className="text-neutral-500">never stated</span>;
  const o = step.operands;
  // The operand values are the model's own first-stated ones (reference values where it never stated them).
  const own = o ? (
    <span className="font-mono">
      {fmtValue(o.aValue)} {opSign(o.op)} {fmtValue(o.bValue)} = {fmtValue(step.recomputed)}
    </span>
  ) : step.recomputed !== null ? (
    <span className="font-mono">{fmtValue(step.recomputed)}</span>
  ) : null;
  if (step.status === "propagated")
    return <span className="text-amber-900">{own ? <>inherited · own values: {own}</> : "inherited from an earlier wrong value"}</span>;
  // an input step has no operands: its value was copied from the item wrong
  if (step.operation?.kind === "input" && !own)
    return (
      <span className="text-red-900">
        input misread · {step.operation.name} is <span className="font-mono">{fmtValue(step.expected)}</span>
      </span>
    );
  return (
    <span className="text-red-900">
      {own ? (
        <>
          new error · own values give {own}, not <span className="font-mono">{fmtValue(step.claimed)}</span>
        </>
      ) : (
        "wrong value (operands unknown, so counted as a slip)"
      )}
    </span>
  );
}
