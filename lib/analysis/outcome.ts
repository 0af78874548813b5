// "Given outcome" analysis: for imported items whose correctness was decided by another tool
// (a harness's scorer, a reproduction's `correct` flag). Nothing is recomputed and there is no
// step trace (hasSteps = false), so the item counts in final-answer accuracy, failure modes and
// the length fit, but never in step curves or horizons.
import { FAILURE_MODES, type AnswerRef, type FailureMode, type GenerationAnalysis, type TurnRow } from "./types";

export interface GivenOutcome {
  /** L: the item's length in steps (or a rounded length, see lengthValue) */
  length: number;
  correct: boolean;
  /** the model's final answer as text; null when it gave none */
  answer: string | null;
  /** true when the model wrote something but no answer could be read from it (harness said so) */
  unparseable?: boolean;
  /** correctness is not known per item (a corpus-level metric): no failure mode is inferred */
  unknown?: boolean;
  /** self-conditioning items: the rate and the target turn */
  selfConditioning?: { inducedErrorRate: number; targetTurn: number } | null;
  /** self-conditioning items: the target turn as a TurnRow, for the generation view */
  turn?: TurnRow | null;
  /** exact length when `length` is a rounding of it (METR human minutes) */
  lengthValue?: number | null;
  /** sample weight in the length fit */
  weight?: number | null;
}

const asNumber = (t: string) => (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) ? Number(t) : null);

export function givenOutcome(g: GivenOutcome): GenerationAnalysis {
  const modes = new Set<FailureMode>();
  if (g.unknown) {
    // nothing is known about an error that may not be one
  } else if (g.unparseable) modes.add("format-error");
  else if (g.answer === null) modes.add("missing-answer");
  // A wrong, readable answer is the one thing known about the error: call it a slip, as
  // self-conditioning runs do (examples/README.md), so failure-mode rates stay comparable.
  if (!g.unknown && !g.correct && g.answer !== null && !g.unparseable) modes.add("slip");
  const modeList = FAILURE_MODES.filter((m) => modes.has(m));
  const text = g.answer === null ? null : g.answer.trim();
  const answers: AnswerRef[] =
    text === null
      ? []
      : [{ text, value: asNumber(text), span: null, kind: g.turn ? "turn" : "given", ...(g.turn ? { turn: g.turn.turn } : {}) }];
  const analysis: GenerationAnalysis = {
    length: g.length,
    reference: [],
    steps: [],
    extras: [],
    revised: [],
    answers,
    firstAnswer: text,
    lastAnswer: text,
    firstCorrect: g.correct,
    lastCorrect: g.correct,
    firstDivergence: null,
    modes: modeList,
    clean: modeList.length === 0 && g.correct,
    exactStep: false,
    turns: g.turn ? [g.turn] : null,
    hasSteps: false,
    selfConditioning: g.selfConditioning ?? null,
  };
  if (g.lengthValue !== undefined && g.lengthValue !== null) analysis.lengthValue = g.lengthValue;
  if (g.weight !== undefined && g.weight !== null) analysis.weight = g.weight;
  return analysis;
}
