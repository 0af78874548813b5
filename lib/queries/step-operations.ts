import type { StepRow, StoredGenerationAnalysis } from "@/lib/analysis/types";

// What each reference step computes, in words, for the trace-diff table.

export type StepOperation =
  | { kind: "input"; name: "x" | "y" }
  | { kind: "arith"; op: string; a: number; b: number }
  | { kind: "key"; key: string; value: number | null };

const OP_SIGN: Record<string, string> = { "+": "+", "-": "−", "*": "×", "/": "÷" };

export function opSign(op: string): string {
  return OP_SIGN[op] ?? op;
}

export function stepOperations(
  benchmark: string,
  input: Record<string, unknown>,
  a: StoredGenerationAnalysis,
  length: number,
): Map<number, StepOperation> {
  const out = new Map<number, StepOperation>();
  if (benchmark === "procedural-arith") {
    out.set(1, { kind: "input", name: "x" });
    out.set(2, { kind: "input", name: "y" });
    const steps = Array.isArray(input.steps) ? (input.steps as { op?: unknown; a?: unknown; b?: unknown }[]) : [];
    steps.forEach((s, i) => {
      if (typeof s?.op === "string" && typeof s.a === "number" && typeof s.b === "number")
        out.set(i + 3, { kind: "arith", op: s.op, a: s.a, b: s.b });
    });
  } else if (benchmark === "dict-sum" && a.turns) {
    let step = 0;
    for (const t of a.turns) t.keys.forEach((key, i) => out.set(++step, { kind: "key", key, value: t.values[i] ?? null }));
    if (step === 0 && Array.isArray(input.keys))
      (input.keys as unknown[]).slice(0, length).forEach((k, i) => out.set(i + 1, { kind: "key", key: String(k), value: null }));
  }
  return out;
}

/**
 * The operand values a procedural-arith step used as the model had them: its first statement
 * of each operand, the reference value where it never stated one (lib/analysis/arith-align.ts,
 * `own`). Derived from the step trace rather than stored: the trace holds both values.
 */
export function ownOperands(
  op: StepOperation | undefined,
  steps: readonly { expected: string; claimed: string | null }[],
): NonNullable<StepRow["operands"]> | null {
  if (op?.kind !== "arith") return null;
  const own = (j: number) => {
    const s = steps[j - 1];
    return s === undefined ? null : Number(s.claimed ?? s.expected);
  };
  const aValue = own(op.a);
  const bValue = own(op.b);
  return aValue === null || bValue === null ? null : { op: op.op, a: op.a, b: op.b, aValue, bValue };
}
