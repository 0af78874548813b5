// generic benchmark: reference and claimed steps are given, nothing is recomputed (SPEC §2.3).
// Steps compare by position; operands are unknown, so every wrong step is a slip.
import {
  FAILURE_MODES,
  type ClaimRef,
  type FailureMode,
  type FieldError,
  type GenerationAnalysis,
  type NativeItem,
  type StepRow,
  type StepValue,
} from "./types";
import { valuesMatch, type Tolerance } from "./numbers";

export function analyseGeneric(item: NativeItem, tol: Tolerance): { analysis: GenerationAnalysis | null; errors: FieldError[] } {
  const ref = item.reference;
  if (!ref || ref.length === 0)
    return { analysis: null, errors: [{ field: "reference", message: "generic items need a non-empty reference (array of values)" }] };
  const claimed = item.steps ?? [];
  const L = ref.length;
  const steps: StepRow[] = ref.map((expected, i) => {
    const c = i < claimed.length ? claimed[i] : null;
    const status = c === null ? "missing" : valuesMatch(c, expected, tol) ? "correct" : "slip";
    return { step: i + 1, status, expected, claimed: c, recomputed: null, operands: null, span: null };
  });
  const extras: ClaimRef[] = [];
  for (let i = L; i < claimed.length; i++) {
    const c = claimed[i];
    if (c !== null) extras.push({ step: i + 1, value: c, span: null });
  }
  const answer: StepValue | null = item.answer ?? null;
  const correct = answer !== null && valuesMatch(answer, ref[L - 1], tol);
  const modes = new Set<FailureMode>();
  if (answer === null) modes.add("missing-answer");
  if (steps.some((s) => s.status === "missing")) modes.add("under-executed");
  if (extras.length) modes.add("extra-steps");
  if (steps.some((s) => s.status === "slip")) modes.add("slip");
  const modeList = FAILURE_MODES.filter((m) => modes.has(m));
  const fd = steps.findIndex((s) => s.status !== "correct");
  const text = answer === null ? null : String(answer).trim();
  return {
    analysis: {
      length: L,
      reference: ref,
      steps,
      extras,
      revised: [],
      answers:
        answer === null ? [] : [{ text: text as string, value: typeof answer === "number" ? answer : null, span: null, kind: "given" }],
      firstAnswer: text,
      lastAnswer: text,
      firstCorrect: correct,
      lastCorrect: correct,
      firstDivergence: fd === -1 ? null : fd + 1,
      modes: modeList,
      clean: modeList.length === 0 && correct,
      exactStep: extras.length === 0 && steps.every((s) => s.status !== "missing"),
      turns: null,
      hasSteps: true,
      selfConditioning: null,
    },
    errors: [],
  };
}
