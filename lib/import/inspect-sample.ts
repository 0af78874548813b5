// One Inspect sample: attachment references resolved, and a completed, scored sample mapped to
// an item and its analysis (a step trace aligned like a native generic item, else a given outcome).
import type { Tolerance } from "../analysis/numbers";
import { analyseGeneric } from "../analysis/generic";
import { givenOutcome } from "../analysis/outcome";
import type { GenerationAnalysis, NativeItem } from "../analysis/types";
import { describe, docLength, isNum, isObj, type ImportContext } from "./context";
import { scoreVerdict, stepCounts, stepTrace, type ScoreChoice } from "./inspect-scores";

/** The parts of a sample an import reads (scoredSample): only their attachment references are resolved. */
const IMPORTED_PARTS = ["input", "target", "metadata", "output", "scores"] as const;

/**
 * Replaces the attachment:// references of the parts of sample `s` an import reads, in place
 * (the sample was just parsed and is ours), and returns the paths of unresolved ones. Messages
 * and events are not imported, so neither walked nor checked: they held most of a sample's
 * nodes (figures: docs/performance.md, "Importers").
 */
export function resolveAttachments(s: Record<string, unknown>, att: Record<string, unknown>): string[] {
  let missing = false;
  for (const k of IMPORTED_PARTS) {
    const v = s[k];
    if (typeof v === "string") {
      const r = resolved(v, att);
      if (r === null) missing = true;
      else if (r !== v) s[k] = r;
    } else if (typeof v === "object" && v !== null && !resolveIn(v, att, 0)) missing = true;
  }
  return missing ? IMPORTED_PARTS.flatMap((k) => unresolved(s[k], att, [k])) : [];
}

/** `v` with its attachment reference resolved; null for a reference to no attachment. */
function resolved(v: string, att: Record<string, unknown>): string | null {
  if (!v.startsWith("attachment://")) return v;
  const hit = att[v.slice(13)];
  return typeof hit === "string" ? hit : null;
}

/** Resolves the references under `v`; false when one is missing (its path is spelled by `unresolved`). */
function resolveIn(v: object, att: Record<string, unknown>, depth: number): boolean {
  if (depth > 100) return true;
  let ok = true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === "string") {
        const r = resolved(x, att);
        if (r === null) ok = false;
        else v[i] = r;
      } else if (typeof x === "object" && x !== null && !resolveIn(x, att, depth + 1)) ok = false;
    }
    return ok;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) {
    const x = o[k];
    if (typeof x === "string") {
      const r = resolved(x, att);
      if (r === null) ok = false;
      // defineProperty: a key "__proto__" parsed from JSON is an own property, not the prototype
      else if (r !== x) Object.defineProperty(o, k, { value: r, writable: true, enumerable: true, configurable: true });
    } else if (typeof x === "object" && x !== null && !resolveIn(x, att, depth + 1)) ok = false;
  }
  return ok;
}

/** The paths of the references under `v` still unresolved (spelled only after one was found missing). */
function unresolved(v: unknown, att: Record<string, unknown>, trail: (string | number)[]): string[] {
  if (typeof v === "string")
    return resolved(v, att) === null ? [trail.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? k : `.${k}`)).join("")] : [];
  if (typeof v !== "object" || v === null || trail.length > 101) return [];
  const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
  return entries.flatMap(([k, x]) => unresolved(x, att, [...trail, k]));
}

/** The model's completion text: output.completion, else the first choice's text content. */
export function completionText(output: unknown): string | null {
  if (!isObj(output)) return null;
  if (typeof output.completion === "string" && output.completion !== "") return output.completion;
  const choice = Array.isArray(output.choices) ? output.choices[0] : null;
  const content = isObj(choice) && isObj(choice.message) ? choice.message.content : null;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const parts = content
      .filter((c) => isObj(c) && c.type === "text" && typeof c.text === "string")
      .map((c) => (c as { text: string }).text);
    return parts.length ? parts.join("\n") : null;
  }
  return null;
}

/** Tokens of the evaluated model over all its calls (`model_usage`), else the last call's `output.usage`. */
export function sampleUsage(s: Record<string, unknown>, model: string): { prompt_tokens?: number; completion_tokens?: number } {
  const mu = isObj(s.model_usage) ? s.model_usage[model] : undefined;
  const u = isObj(mu) ? mu : isObj(s.output) && isObj(s.output.usage) ? s.output.usage : {};
  return {
    ...(isNum(u.input_tokens) ? { prompt_tokens: u.input_tokens } : {}),
    ...(isNum(u.output_tokens) ? { completion_tokens: u.output_tokens } : {}),
  };
}

/** Inspect's target as the reference answer's text: a string, or the accepted strings joined. */
export function targetText(target: unknown): string | null {
  if (typeof target === "string") return target;
  if (Array.isArray(target) && target.every((t) => typeof t === "string")) return target.join(" | ");
  return null;
}

export const errorMessage = (e: unknown) =>
  (isObj(e) && typeof e.message === "string" ? e.message : typeof e === "string" ? e : "error").split("\n")[0].slice(0, 200);

/**
 * One completed, scored sample as a generation: correctness from the chosen score, the item's
 * input, answer, tokens and step trace. Null after an error of this sample; "stop" after an
 * error that every sample would have (a score that is not a correctness).
 */
export function scoredSample(
  ctx: ImportContext,
  name: string,
  s: Record<string, unknown>,
  sc: Record<string, unknown>,
  choice: ScoreChoice,
  at: { id: string; epoch: number; tol: Tolerance; model: string },
): { item: NativeItem; analysis: GenerationAnalysis } | null | "stop" {
  const label = choice.key === null ? choice.scorer : `${choice.scorer}.${choice.key}`;
  const score = sc[choice.scorer];
  if (!isObj(score)) {
    ctx.error(0, `${name}: scores.${choice.scorer}`, `no score from scorer '${choice.scorer}' (scorers: ${Object.keys(sc).join(", ")})`);
    return null;
  }
  let value = score.value;
  if (choice.key !== null) {
    if (!isObj(value) || !(choice.key in value)) {
      ctx.error(0, `${name}: scores.${choice.scorer}.value`, `the score has no key '${choice.key}' (got ${describe(value)})`);
      return null;
    }
    value = value[choice.key];
  }
  const verdict = scoreVerdict(value, choice.key ?? choice.scorer, ctx.opts.threshold);
  if ("error" in verdict) {
    ctx.error(0, `${name}: scores.${choice.scorer}.value${choice.key !== null ? `[${JSON.stringify(choice.key)}]` : ""}`, verdict.error);
    return verdict.global ? "stop" : null;
  }
  const correct = verdict.correct;
  const epochNum = isNum(s.epoch) ? s.epoch : at.epoch;
  const text = completionText(s.output);
  const answer = typeof score.answer === "string" ? score.answer : text;
  const trace = stepTrace(score.metadata, s.metadata, score.explanation);
  const length = trace ? trace.reference.length : docLength(s.metadata);
  const counts = stepCounts(score.value);
  const target = targetText(s.target);
  const item: NativeItem = {
    id: at.id,
    length,
    epoch: Math.max(0, Math.floor(epochNum) - 1), // Inspect counts epochs from 1
    input: {
      input: s.input ?? null,
      target: s.target ?? null,
      metadata: s.metadata ?? null,
      ...(target !== null ? { reference_answer: target } : {}),
    },
    output: text,
    answer,
    usage: sampleUsage(s, at.model),
    latency_ms: isNum(s.total_time) ? Math.round(s.total_time * 1000) : null,
    metadata: {
      scorer: label,
      score: score.value,
      explanation: typeof score.explanation === "string" ? score.explanation : null,
      ...(counts ? { step_counts: counts } : {}),
    },
  };
  let analysis: GenerationAnalysis;
  if (trace) {
    // The trace gives the alignment; the scorer keeps the last word on the final answer.
    const g = analyseGeneric({ ...item, reference: trace.reference, steps: trace.steps, answer: answer ?? null }, at.tol).analysis!;
    analysis = { ...g, firstCorrect: correct, lastCorrect: correct, clean: g.modes.length === 0 && correct };
    item.reference = trace.reference;
    item.steps = trace.steps;
  } else analysis = givenOutcome({ length, correct, answer: answer && answer.trim() ? answer : null });
  return { item, analysis };
}
