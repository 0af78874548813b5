// procedural-arith executor: validates a procedure and computes its reference trace (SPEC §2.1).
import type { FieldError } from "./types";

export const ARITH_OPS = ["+", "-", "*", "/"] as const;
export type ArithOp = (typeof ARITH_OPS)[number];

export interface ArithStep {
  op: ArithOp;
  a: number; // 1-based variable index
  b: number;
}

export interface ArithProcedure {
  x: number;
  y: number;
  steps: ArithStep[]; // L − 2 operations; steps[k] defines S_{k+3}
}

export function applyOp(op: string, a: number, b: number): number {
  switch (op) {
    case "+":
      return a + b;
    case "-":
      return a - b;
    case "*":
      return a * b;
    case "/":
      return a / b;
    default:
      return Number.NaN;
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Checks `input` of a procedural-arith item and returns the problems found, and the procedure
 * whenever it can still be executed (so a look-back violation and a division by zero in the
 * same item are both reported).
 * `lookback` (variant.lookback, when a positive integer) narrows the allowed operand window to
 * j − lookback ≤ a, b ≤ j − 1; without it any earlier variable is allowed.
 */
export function readProcedure(input: unknown, lookback: number | null): { proc: ArithProcedure | null; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (!isObj(input)) return { proc: null, errors: [{ field: "input", message: "input must be an object with x, y and steps" }] };
  for (const k of ["x", "y"] as const) {
    const v = input[k];
    if (typeof v !== "number" || !Number.isFinite(v)) {
      errors.push({ field: `input.${k}`, message: v === undefined ? `input.${k} is required` : `input.${k} must be a finite number` });
    }
  }
  const raw = input.steps;
  if (!Array.isArray(raw)) {
    errors.push({
      field: "input.steps",
      message: raw === undefined ? "input.steps is required" : "input.steps must be an array of operations",
    });
    return { proc: null, errors };
  }
  const steps: ArithStep[] = [];
  let fatal = errors.length > 0;
  // Field names are spelled out only for an error: a load reads ~50 operations per item.
  const at = (k: number) => `input.steps[${k}]`;
  const side = (k: number, j: number, name: "a" | "b", v: unknown) => {
    if (typeof v !== "number" || !Number.isInteger(v)) {
      errors.push({ field: `${at(k)}.${name}`, message: "variable index must be an integer" });
      fatal = true;
      return;
    }
    const lo = lookback !== null ? Math.max(1, j - lookback) : 1;
    if (v < lo || v > j - 1) {
      const why = lookback !== null && lo > 1 ? ` (lookback ${lookback})` : "";
      errors.push({ field: `${at(k)}.${name}`, message: `variable index ${v} out of range: S${j} may only use S${lo}..S${j - 1}${why}` });
      // Outside the look-back window the procedure can still be executed (and checked further).
      if (v < 1 || v > j - 1) fatal = true;
    }
  };
  raw.forEach((s, k) => {
    const j = k + 3;
    if (!isObj(s)) {
      errors.push({ field: at(k), message: "an operation must be an object {op, a, b}" });
      fatal = true;
      return;
    }
    const op = s.op;
    if (typeof op !== "string" || !(ARITH_OPS as readonly string[]).includes(op)) {
      fatal = true;
      errors.push({
        field: `${at(k)}.op`,
        message: `unknown operation ${typeof op === "string" ? `'${op}'` : JSON.stringify(op ?? null)} (expected one of + - * /)`,
      });
    }
    side(k, j, "a", s.a);
    side(k, j, "b", s.b);
    steps.push({ op: op as ArithOp, a: s.a as number, b: s.b as number });
  });
  if (fatal) return { proc: null, errors };
  return { proc: { x: input.x as number, y: input.y as number, steps }, errors };
}

const OP_SHOWN: Record<ArithOp, string> = { "+": "+", "-": "-", "*": "*", "/": "/" };

/** IEEE-double reference trace [S1..SL]; a division by zero or a non-finite value is an error. */
export function referenceTrace(proc: ArithProcedure): { trace: number[] | null; errors: FieldError[] } {
  const steps = proc.steps;
  const s: number[] = new Array(steps.length + 2);
  s[0] = proc.x;
  s[1] = proc.y;
  for (let k = 0; k < steps.length; k++) {
    const step = steps[k];
    const bv = s[step.b - 1];
    const v = applyOp(step.op, s[step.a - 1], bv);
    if (!Number.isFinite(v)) return { trace: null, errors: [traceError(step, k, bv, v)] };
    s[k + 2] = v;
  }
  return { trace: s, errors: [] };
}

// Spelled out only for an error: a closure for the formula per step was a sixth of a load's
// allocation (docs/performance.md, "Load").
function traceError({ op, a, b }: ArithStep, k: number, bv: number, v: number): FieldError {
  const formula = `S${k + 3} = S${a} ${OP_SHOWN[op]} S${b}`;
  return op === "/" && bv === 0
    ? { field: `input.steps[${k}]`, message: `reference divides by zero: ${formula} with S${b} = 0` }
    : { field: `input.steps[${k}]`, message: `reference leaves the finite range: ${formula} = ${v}` };
}
