// Diffs a parsed procedural-arith generation against the reference trace (SPEC §3 with the
// conventions of examples/README.md: a step's status comes from its first statement).
import {
  FAILURE_MODES,
  type AnswerRef,
  type ClaimRef,
  type FailureMode,
  type GenerationAnalysis,
  type StepRow,
  type StepStatus,
} from "./types";
import type { ArithProcedure } from "./arith";
import { applyOp } from "./arith";
import type { Claim, ParsedAnswer } from "./arith-parse";
import { match, roundTo, type Tolerance } from "./numbers";

export function alignArith(
  proc: ArithProcedure,
  trace: number[],
  claims: Claim[],
  answers: ParsedAnswer[],
  tol: Tolerance,
): GenerationAnalysis {
  const L = trace.length;
  const first: (Claim | null)[] = new Array(L).fill(null);
  const statements = new Int32Array(L);
  const extras: ClaimRef[] = [];
  const revised: ClaimRef[] = [];
  for (const c of claims) {
    if (c.step < 1 || c.step > L) {
      extras.push({ step: c.step, value: c.value, span: c.span });
      continue;
    }
    const i = c.step - 1;
    statements[i]++;
    const f = first[i];
    if (f === null) first[i] = c;
    else if (!sameValue(f.value, c.value, tol)) revised.push({ step: c.step, value: c.value, span: c.span });
  }

  // The model's own value of S_j: its first statement, or the reference when never stated.
  const own = (j: number): number => first[j - 1]?.value ?? trace[j - 1];
  const steps: StepRow[] = trace.map((ref, i) => {
    const c = first[i];
    const j = i + 1;
    const opDef = j >= 3 ? proc.steps[j - 3] : null;
    const recomputed = opDef ? applyOp(opDef.op, own(opDef.a), own(opDef.b)) : null;
    let status: StepStatus;
    if (c === null) status = "missing";
    else if (c.value !== null && match(c.value, ref, tol)) status = "correct";
    else if (c.value !== null && recomputed !== null && Number.isFinite(recomputed) && match(c.value, recomputed, tol))
      status = "propagated";
    else status = "slip"; // includes a wrong S1/S2 and a statement without a number
    return {
      step: j,
      status,
      expected: ref,
      claimed: c?.value ?? null,
      recomputed: recomputed !== null && Number.isFinite(recomputed) ? recomputed : null,
      // only where a page shows them, beside a step that is not correct: an object for every
      // step was a tenth of a load's allocation (docs/performance.md, "Load")
      operands: opDef && status !== "correct" ? { op: opDef.op, a: opDef.a, b: opDef.b, aValue: own(opDef.a), bValue: own(opDef.b) } : null,
      span: c?.span ?? null,
    };
  });

  const answerRefs: AnswerRef[] = answers.map((a) => ({ text: a.text, value: a.value, span: a.span, kind: a.kind }));
  const correct = (a: ParsedAnswer | undefined) => a !== undefined && arithAnswerCorrect(a.value, trace[L - 1], tol);
  const firstA = answers[0];
  const lastA = answers[answers.length - 1];
  const firstCorrect = correct(firstA);
  const lastCorrect = correct(lastA);

  const modes = new Set<FailureMode>();
  if (answers.length === 0) modes.add("missing-answer");
  if (answers.some((a) => a.value === null)) modes.add("format-error");
  const lastStated = first[L - 1];
  if (firstA && (lastStated === null || firstA.span[0] < lastStated.span[0])) modes.add("premature-answer");
  if (!firstCorrect && distinctNumbers(answers, tol) >= 2) modes.add("self-correction");
  const stated = first.filter((c) => c !== null).length;
  if (stated < L) modes.add("under-executed");
  if (extras.length > 0) modes.add("extra-steps");
  if (steps.some((s) => s.status === "slip")) modes.add("slip");

  const fd = steps.findIndex((s) => s.status !== "correct");
  const modeList = ORDER.filter((m) => modes.has(m));
  return {
    length: L,
    reference: trace,
    steps,
    extras,
    revised,
    answers: answerRefs,
    firstAnswer: firstA?.text ?? null,
    lastAnswer: lastA?.text ?? null,
    firstCorrect,
    lastCorrect,
    firstDivergence: fd === -1 ? null : fd + 1,
    modes: modeList,
    clean: modeList.length === 0 && lastCorrect,
    exactStep: extras.length === 0 && statements.every((n) => n === 1),
    turns: null,
    hasSteps: true,
    selfConditioning: null,
  };
}

const ORDER: readonly FailureMode[] = FAILURE_MODES;

function sameValue(a: number | null, b: number | null, tol: Tolerance): boolean {
  if (a === null || b === null) return a === b;
  return match(b, a, tol);
}

/**
 * The paper's grading (SPEC §2.1): an answer is correct when it matches S_L rounded half away
 * from zero to 3 decimals. Matching the unrounded S_L is not enough (−8.581 for S_L = −8.580492
 * is wrong); the tolerance only absorbs how the rounded value is written.
 */
export function arithAnswerCorrect(value: number | null, finalStep: number, tol: Tolerance): boolean {
  return value !== null && match(value, roundTo(finalStep, 3), tol);
}

/** Number of different numeric answers (tolerance-distinct). */
export function distinctNumbers(answers: readonly { value: number | null }[], tol: Tolerance): number {
  const seen: number[] = [];
  for (const a of answers) {
    if (a.value === null) continue;
    if (!seen.some((v) => match(a.value as number, v, tol))) seen.push(a.value);
    if (seen.length >= 2) return 2;
  }
  return seen.length;
}
