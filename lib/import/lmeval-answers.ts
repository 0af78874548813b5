// What an lm-evaluation-harness record says the model answered, by output type:
// generate_until → the filtered text (`[invalid]` = no answer extracted); multiple_choice → the
// argmax choice of the log-likelihoods; loglikelihood → the target continuation and whether it
// was the greedy one. lm-eval ≥ 0.4 writes every response leaf as text ("-10.125", "False").
import { describe, isInt, isNum, isObj } from "./context";

export const text = (v: unknown): string | null => (typeof v === "string" ? v : v === undefined || v === null ? null : JSON.stringify(v));

/** strict-match's "no answer extracted" marker. */
export const LM_INVALID = "[invalid]";

/** A log-likelihood response `[ll, is_greedy]`; lm-eval ≥ 0.4 writes both as text ("-10.125", "False"). */
export function llPair(v: unknown): { ll: number; greedy: boolean } | null {
  if (!Array.isArray(v) || v.length !== 2) return null;
  const ll = typeof v[0] === "string" && v[0].trim() !== "" ? Number(v[0]) : v[0];
  const g = v[1] === true || v[1] === "True" ? true : v[1] === false || v[1] === "False" ? false : null;
  return typeof ll === "number" && !Number.isNaN(ll) && g !== null ? { ll, greedy: g } : null;
}

/** The continuation of request i: `arguments.gen_args_<i>.arg_1` (0.4.x) or `arguments[i][1]` (older). */
export function continuation(args: unknown, i: number): string | null {
  const a = Array.isArray(args) ? args[i] : isObj(args) ? args[`gen_args_${i}`] : undefined;
  const c = Array.isArray(a) ? a[1] : isObj(a) ? a.arg_1 : undefined;
  return typeof c === "string" ? c : null;
}

export type OutputType = "generate_until" | "multiple_choice" | "loglikelihood" | "loglikelihood_rolling";
export const OUTPUT_TYPES: readonly string[] = ["generate_until", "multiple_choice", "loglikelihood", "loglikelihood_rolling"];

/** Output type from the shape when results_*.json does not say: pairs are log-likelihoods. */
export function inferOutputType(filtered: unknown[]): OutputType {
  if (filtered.length > 0 && filtered.every((f) => llPair(f) !== null)) return filtered.length > 1 ? "multiple_choice" : "loglikelihood";
  return "generate_until";
}

export const isMetricValue = (v: unknown) => typeof v === "boolean" || isNum(v);

export interface Answered {
  answer: string | null;
  output: string | null;
  unparseable?: boolean;
  metadata: Record<string, unknown>;
  referenceAnswer?: string | null;
}

export function multipleChoice(rec: Record<string, unknown>, filtered: unknown[]): Answered | string {
  const pairs = filtered.map(llPair);
  const bad = pairs.findIndex((p) => p === null);
  if (bad !== -1) return `filtered_resps[${bad}] must be a [log-likelihood, is_greedy] pair (got ${describe(filtered[bad])})`;
  const lls = pairs.map((p) => p!.ll);
  const index = lls.reduce((best, ll, i) => (ll > lls[best] ? i : best), 0);
  const choices = lls.map((_, i) => continuation(rec.arguments, i));
  const choiceText = (i: number) => (choices[i] ?? "").trim() || `choice ${i}`;
  const gold = isInt(rec.target) ? rec.target : typeof rec.target === "string" && /^\d+$/.test(rec.target) ? Number(rec.target) : null;
  return {
    answer: choiceText(index),
    output: lls.map((ll, i) => `${i === index ? "→" : " "} [${i}] ${ll}  ${choiceText(i)}`).join("\n"),
    metadata: { choice: { index, text: choiceText(index) }, loglikelihoods: lls },
    referenceAnswer:
      gold !== null && gold < lls.length ? `${choiceText(gold)} [${gold}]` : typeof rec.target === "string" ? rec.target : null,
  };
}

export function loglikelihood(rec: Record<string, unknown>, filtered: unknown[]): Answered | string {
  const p = llPair(filtered[0]);
  if (!p) return `filtered_resps[0] must be a [log-likelihood, is_greedy] pair (got ${describe(filtered[0])})`;
  const cont = continuation(rec.arguments, 0) ?? text(rec.target) ?? "";
  return {
    answer: cont.trim() || null,
    output: `target continuation: ${JSON.stringify(cont)}\nlog-likelihood: ${p.ll}\ngreedy: ${p.greedy ? "yes (the model's most likely continuation)" : "no"}`,
    metadata: { loglikelihood: p.ll, greedy: p.greedy, continuation: cont },
    referenceAnswer: cont,
  };
}

export function generated(rec: Record<string, unknown>, filteredAnswer: unknown, raw: string | null): Answered {
  const answer = text(filteredAnswer);
  if (answer === LM_INVALID) {
    // No answer could be extracted: a format error when the model wrote something, else missing.
    const wrote = raw !== null && raw.trim() !== "";
    return { answer: null, output: raw, unparseable: wrote, metadata: { extracted: LM_INVALID } };
  }
  return { answer: answer === "" ? null : answer, output: raw, metadata: {}, referenceAnswer: text(rec.target) };
}
