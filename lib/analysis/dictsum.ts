// dict-sum executor and diff: reference running sums, multi-turn and single-turn scoring
// (SPEC §2.2, examples/README.md "dict-sum"). Self-conditioning items live in dictsum-selfcond.ts.
import {
  FAILURE_MODES,
  type AnswerRef,
  type ClaimRef,
  type FailureMode,
  type FieldError,
  type GenerationAnalysis,
  type NativeItem,
  type RunHeader,
  type Span,
  type StepRow,
  type StepStatus,
  type TurnRow,
} from "./types";
import { parseInteger, turnAnswer } from "./dictsum-parse";

export interface DictProblem {
  keys: string[];
  values: number[];
  K: number; // keys per turn
  L: number; // steps = keys
  T: number; // turns = ceil(L / K)
  sums: number[]; // running sum after every step
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Keys of turn t (1-based) as [start, end) step indices. */
export const turnRange = (p: Pick<DictProblem, "K" | "L">, t: number): [number, number] => [(t - 1) * p.K, Math.min(t * p.K, p.L)];

export function readDictProblem(header: RunHeader, item: NativeItem): { problem: DictProblem | null; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const input = item.input;
  const dictField = input.dictionary !== undefined ? "input.dictionary" : "variant.dictionary";
  const dict = input.dictionary ?? header.variant.dictionary;
  if (!isObj(dict)) {
    const message =
      dict === undefined
        ? "no dictionary: give input.dictionary or run.variant.dictionary"
        : "the dictionary must be an object word → integer";
    return { problem: null, errors: [{ field: dict === undefined ? "input.dictionary" : dictField, message }] };
  }
  const keys = input.keys;
  if (!Array.isArray(keys) || keys.length === 0) {
    return {
      problem: null,
      errors: [
        { field: "input.keys", message: keys === undefined ? "input.keys is required" : "input.keys must be a non-empty array of words" },
      ],
    };
  }
  const values: number[] = [];
  keys.forEach((k, i) => {
    if (typeof k !== "string") {
      errors.push({ field: `input.keys[${i}]`, message: "a key must be a string" });
      return;
    }
    const v = Object.prototype.hasOwnProperty.call(dict, k) ? dict[k] : undefined;
    if (v === undefined) errors.push({ field: `input.keys[${i}]`, message: `key '${k}' is not in the dictionary` });
    else if (typeof v !== "number" || !Number.isFinite(v))
      errors.push({ field: `${dictField}.${k}`, message: `the value of '${k}' must be a finite number` });
    else values.push(v);
  });
  const K = header.variant.K === undefined || header.variant.K === null ? 1 : (header.variant.K as number);
  if (!Number.isInteger(K) || K < 1) errors.push({ field: "variant.K", message: "K must be a positive integer" });
  if (errors.length) return { problem: null, errors };
  const sums: number[] = [];
  let acc = 0;
  for (const v of values) sums.push((acc += v));
  const L = keys.length;
  return { problem: { keys: keys as string[], values, K, L, T: Math.ceil(L / K), sums }, errors };
}

/** One turn's answer as scored: text null = no tag; value null = no tag or not an integer. */
export interface TurnInput {
  text: string | null;
  value: number | null;
  span: Span | null;
}

export function analyseMultiOrSingle(
  header: RunHeader,
  item: NativeItem,
  p: DictProblem,
): { analysis: GenerationAnalysis | null; errors: FieldError[] } {
  const out = item.output;
  const multi = header.variant.multi_turn;
  if (Array.isArray(out)) {
    if (multi === false) return fail("output", "this variant is single-turn: output must be one string");
    if (out.length !== p.T) return fail("output", `expected ${p.T} turn texts (one per turn), got ${out.length}`);
    const bad = out.findIndex((o) => typeof o !== "string");
    if (bad !== -1) return fail(`output[${bad}]`, "a turn text must be a string");
    const turns = (out as string[]).map((text): TurnInput => {
      const a = turnAnswer(text);
      return { text: a.text, value: a.text === null ? null : parseInteger(a.text), span: a.span };
    });
    return { analysis: score(p, turns, "turn", []), errors: [] };
  }
  if (multi === true && p.T > 1) return fail("output", `this variant is multi-turn: output must be an array of ${p.T} turn texts`);
  const text = typeof out === "string" ? out : "";
  const a = turnAnswer(text);
  if (a.text === null || a.span === null) return { analysis: score(p, [], "list", []), errors: [] };
  // Single-turn: the one answer tag holds comma-separated sums, one per turn.
  const contentStart = a.span[0] + 8;
  const raw = text.slice(contentStart, a.span[1] - 9);
  const parts: TurnInput[] = [];
  let from = 0;
  for (;;) {
    const comma = raw.indexOf(",", from);
    const piece = raw.slice(from, comma === -1 ? raw.length : comma);
    const lead = piece.length - piece.trimStart().length;
    const t = piece.trim();
    const s = contentStart + from + lead;
    parts.push({ text: t, value: parseInteger(t), span: [s, s + t.length] });
    if (comma === -1) break;
    from = comma + 1;
  }
  const turns = parts.slice(0, p.T);
  const extras: ClaimRef[] = parts
    .slice(p.T)
    .map((x, i) => ({ step: (p.T + i + 1) * p.K, value: x.value ?? x.text, span: x.span, turn: p.T + i + 1 }));
  // The final answer of a single-turn generation is the last sum of its list.
  const analysis = score(p, turns, "list", extras, parts[parts.length - 1]);
  return { analysis, errors: [] };
}

function fail(field: string, message: string) {
  return { analysis: null, errors: [{ field, message }] };
}

/** Scores turns (README): correct, propagated from the model's previous answer, slip, missing. */
function score(
  p: DictProblem,
  turns: TurnInput[],
  kind: "turn" | "list",
  extras: ClaimRef[],
  finalOverride?: TurnInput,
): GenerationAnalysis {
  const rows: TurnRow[] = [];
  const steps: StepRow[] = [];
  const answers: AnswerRef[] = [];
  let prev = 0; // the model's last valid answer; carries over turns without one
  let noop = false;
  let invalid = false;
  for (let t = 1; t <= p.T; t++) {
    const [s, e] = turnRange(p, t);
    const tin = turns[t - 1] ?? { text: null, value: null, span: null };
    const expected = p.sums[e - 1];
    let turnSum = 0;
    for (let i = s; i < e; i++) turnSum += p.values[i];
    let status: StepStatus;
    if (tin.value === null) status = "missing";
    else if (tin.value === expected) status = "correct";
    else if (tin.value === prev + turnSum) status = "propagated";
    else status = "slip";
    if (tin.text === null) noop = true;
    else {
      if (tin.value === null) invalid = true;
      answers.push({ text: tin.text, value: tin.value, span: tin.span, kind, turn: t });
    }
    let partial = prev;
    for (let i = s; i < e; i++) {
      partial += p.values[i];
      const last = i === e - 1;
      steps.push({
        step: i + 1,
        status,
        expected: p.sums[i],
        claimed: last ? tin.value : null,
        recomputed: partial,
        operands: null,
        span: tin.span,
        turn: t,
      });
    }
    rows.push({
      turn: t,
      keys: p.keys.slice(s, e),
      values: p.values.slice(s, e),
      expected,
      answer: tin.value,
      answerText: tin.text,
      status,
    });
    if (tin.value !== null) prev = tin.value;
  }
  const modes = new Set<FailureMode>();
  // Single-turn: "no answer" means no tag at all; a short list only leaves steps missing.
  if (kind === "turn" ? noop : turns.length === 0) modes.add("missing-answer");
  if (invalid) modes.add("format-error");
  if (steps.some((x) => x.status === "missing")) modes.add("under-executed");
  if (steps.some((x) => x.status === "slip")) modes.add("slip");
  const fin = finalOverride ?? turns[p.T - 1];
  const finalText = fin?.text ?? null;
  const finalCorrect = fin !== undefined && fin.value !== null && fin.value === p.sums[p.L - 1];
  const fd = steps.findIndex((x) => x.status !== "correct");
  const modeList = FAILURE_MODES.filter((m) => modes.has(m));
  return {
    length: p.L,
    reference: p.sums,
    steps,
    extras,
    revised: [],
    answers,
    firstAnswer: finalText,
    lastAnswer: finalText,
    firstCorrect: finalCorrect,
    lastCorrect: finalCorrect,
    firstDivergence: fd === -1 ? null : fd + 1,
    modes: modeList,
    clean: modeList.length === 0 && finalCorrect,
    exactStep: extras.length === 0 && steps.every((x) => x.status !== "missing"),
    turns: rows,
    hasSteps: true,
    selfConditioning: null,
  };
}
