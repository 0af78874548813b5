// dict-sum self-conditioning items (SPEC §2.2): the model saw `input.shown` as its own history
// and answers only the target turn. Correct ⇔ answer = last shown value + the target turn's keys.
import {
  FAILURE_MODES,
  type FailureMode,
  type FieldError,
  type GenerationAnalysis,
  type NativeItem,
  type RunHeader,
  type StepStatus,
} from "./types";
import { parseInteger, turnAnswer } from "./dictsum-parse";
import { turnRange, type DictProblem } from "./dictsum";

/** An item is a self-conditioning one when it carries `input.shown` or the run names a target turn. */
export function isSelfConditioning(header: RunHeader, item: NativeItem): boolean {
  return item.input.shown !== undefined || (header.config.target_turn !== undefined && header.config.target_turn !== null);
}

const fail = (field: string, message: string) => ({ analysis: null, errors: [{ field, message }] as FieldError[] });

export function analyseSelfConditioning(
  header: RunHeader,
  item: NativeItem,
  p: DictProblem,
): { analysis: GenerationAnalysis | null; errors: FieldError[] } {
  const tt = header.config.target_turn ?? item.input.target_turn ?? p.T;
  if (typeof tt !== "number" || !Number.isInteger(tt) || tt < 1)
    return fail("config.target_turn", "target_turn must be a positive integer");
  if (tt > p.T) return fail("input.keys", `target turn ${tt} needs ${tt * p.K} keys, the item has ${p.L}`);
  const rate = item.input.induced_error_rate ?? header.config.induced_error_rate;
  if (typeof rate !== "number" || !Number.isFinite(rate) || rate < 0 || rate > 1) {
    const field = item.input.induced_error_rate !== undefined ? "input.induced_error_rate" : "config.induced_error_rate";
    return fail(
      field,
      rate === undefined
        ? "an induced error rate is required (input.induced_error_rate or config.induced_error_rate)"
        : "the induced error rate must be a number in [0, 1]",
    );
  }
  const shown = item.input.shown ?? [];
  if (!Array.isArray(shown)) return fail("input.shown", "input.shown must be an array of the history values shown");
  if (shown.length !== tt - 1) return fail("input.shown", `expected ${tt - 1} history values (turns 1..${tt - 1}), got ${shown.length}`);
  const badShown = shown.findIndex((v) => typeof v !== "number" || !Number.isFinite(v));
  if (badShown !== -1) return fail(`input.shown[${badShown}]`, "a shown value must be a finite number");
  let text: string;
  if (typeof item.output === "string") text = item.output;
  else if (item.output === null) text = "";
  else if (item.output.length === 1 && typeof item.output[0] === "string") text = item.output[0];
  else return fail("output", "a self-conditioning generation is the single target-turn text");

  const [s, e] = turnRange(p, tt);
  const values = p.values.slice(s, e);
  const base = shown.length ? (shown[shown.length - 1] as number) : 0;
  const expected = values.reduce((a, v) => a + v, base);
  const ans = turnAnswer(text);
  const value = ans.text === null ? null : parseInteger(ans.text);
  const status: StepStatus = value === null ? "missing" : value === expected ? "correct" : "slip";
  const modes = new Set<FailureMode>();
  if (ans.text === null) modes.add("missing-answer");
  else if (value === null) modes.add("format-error");
  if (status === "slip") modes.add("slip");
  const modeList = FAILURE_MODES.filter((m) => modes.has(m));
  const correct = status === "correct";
  return {
    analysis: {
      length: p.L,
      // No step trace: the history was given, only the target turn was generated.
      reference: [],
      steps: [],
      extras: [],
      revised: [],
      answers: ans.text === null ? [] : [{ text: ans.text, value, span: ans.span, kind: "turn", turn: tt }],
      firstAnswer: ans.text,
      lastAnswer: ans.text,
      firstCorrect: correct,
      lastCorrect: correct,
      firstDivergence: null,
      modes: modeList,
      clean: modeList.length === 0 && correct,
      exactStep: false,
      turns: [{ turn: tt, keys: p.keys.slice(s, e), values, expected, answer: value, answerText: ans.text, status }],
      hasSteps: false,
      selfConditioning: { inducedErrorRate: rate, targetTurn: tt },
    },
    errors: [],
  };
}
