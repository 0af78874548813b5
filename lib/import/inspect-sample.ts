// One Inspect sample: attachment references resolved, and a completed, scored sample mapped to
// an item and its analysis (a step trace aligned like a native generic item, else a given outcome).
import type { Tolerance } from "../analysis/numbers";
import { analyseGeneric } from "../analysis/generic";
import { givenOutcome } from "../analysis/outcome";
import type { GenerationAnalysis, NativeItem } from "../analysis/types";
import { describe, docLength, isNum, isObj, type ImportContext } from "./context";
import { scoreVerdict, stepCounts, stepTrace, type ScoreChoice } from "./inspect-scores";

/**
 * Replaces attachment:// references in place (the sample was just parsed and is ours) and
 * returns the paths of unresolved ones. The path of a node is only spelled out when one is
 * missing: building it for every node cost more than the walk.
 */
export function resolveAttachments(root: unknown, att: Record<string, unknown>): string[] {
  const missing: string[] = [];
  const trail: (string | number)[] = [];
  const spell = () => trail.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? k : `.${k}`)).join("") || "-";
  const resolve = (v: string): string => {
    if (!v.startsWith("attachment://")) return v;
    const hit = att[v.slice(13)];
    if (typeof hit === "string") return hit;
    missing.push(spell());
    return v;
  };
  const walk = (v: unknown, depth: number): void => {
    if (depth > 100) return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        trail.push(i);
        if (typeof x === "string") v[i] = resolve(x);
        else if (typeof x === "object" && x !== null) walk(x, depth + 1);
        trail.pop();
      }
    } else if (isObj(v)) {
      for (const k of Object.keys(v)) {
        if (k === "attachments") continue;
        const x = v[k];
        trail.push(k);
        if (typeof x === "string") {
          const r = resolve(x);
          // defineProperty: a key "__proto__" parsed from JSON is an own property, not the prototype
          if (r !== x) Object.defineProperty(v, k, { value: r, writable: true, enumerable: true, configurable: true });
        } else if (typeof x === "object" && x !== null) walk(x, depth + 1);
        trail.pop();
      }
    }
  };
  walk(root, 0);
  return missing;
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
