// Which score of an Inspect sample means correct (scoreChoice: --metric, else the first listed
// score), and what its value says (scoreVerdict: C/I, true/false, 0/1; a continuous value only
// with --threshold), with what a score may carry beside it: step counts and a step trace.
import type { StepValue } from "../analysis/types";
import { describe, isNum, isObj } from "./context";

/** Which score means correct: a scorer's value, or one key of a scorer's dict value. */
export interface ScoreChoice {
  scorer: string;
  key: string | null;
}

/** The scores the header lists (`results.scores`): a dict-valued scorer lists one per key, named by the key. */
export interface ListedScore {
  name: string;
  scorer: string;
}

export function listedScores(results: unknown): ListedScore[] {
  const scores = isObj(results) && Array.isArray(results.scores) ? results.scores.filter(isObj) : [];
  return scores
    .map((s) => ({ name: typeof s.name === "string" ? s.name : "", scorer: typeof s.scorer === "string" ? s.scorer : "" }))
    .map((s) => ({ name: s.name || s.scorer, scorer: s.scorer || s.name }))
    .filter((s) => s.name !== "");
}

/**
 * `--metric` (or the first listed score) → scorer and key, given one sample's scores:
 * a scorer's name; a listed score's name whose scorer returns a dict (`Problem Correctness`);
 * or `scorer.key`.
 */
export function scoreChoice(
  metric: string | undefined,
  listed: ListedScore[],
  sampleScores: Record<string, unknown>,
): ScoreChoice | string {
  const scorers = Object.keys(sampleScores);
  const keyed = (scorer: string, key: string): ScoreChoice => ({ scorer, key: isObj(valueOf(sampleScores[scorer])) ? key : null });
  if (metric === undefined) {
    const first = listed[0];
    if (first)
      return first.name !== first.scorer && first.scorer in sampleScores
        ? keyed(first.scorer, first.name)
        : { scorer: first.scorer, key: null };
    return { scorer: scorers[0], key: null };
  }
  if (metric in sampleScores) return { scorer: metric, key: null };
  const byName = listed.find((s) => s.name === metric && s.scorer !== metric && s.scorer in sampleScores);
  if (byName) return { scorer: byName.scorer, key: metric };
  // scorer.key: the longest scorer name that prefixes the metric (scorer names may hold dots)
  const prefix = scorers.filter((s) => metric.startsWith(s + ".")).sort((a, b) => b.length - a.length)[0];
  if (prefix) return { scorer: prefix, key: metric.slice(prefix.length + 1) };
  const names = [...new Set([...scorers, ...listed.map((s) => s.name)])];
  return `no score from scorer '${metric}' (scores: ${names.join(", ")}; a key of a dict score is --metric "KEY" or --metric scorer.KEY)`;
}

const valueOf = (score: unknown) => (isObj(score) ? score.value : undefined);

export type Verdict = { correct: boolean } | { error: string; global?: boolean };

/**
 * A score value → correct? C/I (and P/N), true/false and 0/1 are correctness. Any other number
 * in [0, 1] is a score (a win rate, partial credit): correct only by an explicit threshold.
 */
export function scoreVerdict(value: unknown, label: string, threshold?: number): Verdict {
  if (typeof value === "boolean") return { correct: value };
  if (isNum(value)) {
    if (threshold !== undefined) {
      if (value < 0 || value > 1) return { error: `score '${label}' is ${value}, outside [0, 1]: --threshold cannot apply` };
      return { correct: value >= threshold };
    }
    if (value === 0 || value === 1) return { correct: value === 1 };
    if (value > 0 && value < 1)
      return {
        error: `score '${label}' is continuous (${value}): a score in [0, 1], not a correctness; give --threshold T to count values ≥ T as correct`,
        global: true,
      };
    return {
      error: `score '${label}' is ${value}, not a correctness (C/I, true/false or 0/1): choose another with --metric`,
      global: true,
    };
  }
  if (typeof value === "string") {
    const v = value.trim().toUpperCase();
    if (v === "C" || v === "CORRECT") return { correct: true };
    if (v === "I" || v === "INCORRECT" || v === "P" || v === "PARTIAL" || v === "N" || v === "NOANSWER") return { correct: false };
  }
  if (isObj(value))
    return {
      error: `score '${label}' is a dict (keys: ${Object.keys(value).join(", ")}): choose one with --metric "KEY" or --metric ${label}.KEY`,
      global: true,
    };
  return { error: `cannot tell correct from ${describe(value)} (expected C/I, 0/1 or true/false)` };
}

/** Step counts a dict score carries (`Total Correct`, `Total Steps`), kept on the generation. */
export function stepCounts(value: unknown): { correct?: number; total?: number } | null {
  if (!isObj(value)) return null;
  const out: { correct?: number; total?: number } = {};
  for (const [k, v] of Object.entries(value)) {
    if (!isNum(v) || !Number.isInteger(v)) continue;
    const n = k.toLowerCase().replace(/[\s_-]+/g, " ");
    if (/\bsteps?\b/.test(n) && /\b(total|count|num|n)\b/.test(n) && !/correct/.test(n)) out.total = v;
    else if (/\bcorrect\b/.test(n) && /\b(total|steps?|count|num|n)\b/.test(n)) out.correct = v;
  }
  return out.correct === undefined && out.total === undefined ? null : out;
}

const stepValue = (v: unknown): v is StepValue => (isNum(v) || typeof v === "string") && v !== "";

/**
 * A step trace carried by a score's metadata, the sample's metadata, or a JSON scorer
 * explanation: `reference` (or `reference_steps`, `expected_steps`) and `steps` (or
 * `model_steps`, `claimed_steps`; null = a step not stated), both lists of values.
 */
export function stepTrace(...places: unknown[]): { reference: StepValue[]; steps: (StepValue | null)[] } | null {
  for (let p of places) {
    if (typeof p === "string") {
      const t = p.trim();
      if (!t.startsWith("{")) continue;
      try {
        p = JSON.parse(t);
      } catch {
        continue;
      }
    }
    if (!isObj(p)) continue;
    const ref = p.reference ?? p.reference_steps ?? p.expected_steps;
    const claimed = p.steps ?? p.model_steps ?? p.claimed_steps;
    if (!Array.isArray(ref) || ref.length === 0 || !ref.every(stepValue)) continue;
    if (!Array.isArray(claimed) || !claimed.every((v) => v === null || stepValue(v))) continue;
    return { reference: ref, steps: claimed as (StepValue | null)[] };
  }
  return null;
}
