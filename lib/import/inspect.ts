// Inspect AI `.eval` logs (log format v2 and v3): a ZIP with header.json (eval spec, results),
// summaries.json and samples/{id}_epoch_{n}.json. Samples are read one member at a time.
// `attachment://<hash>` strings anywhere in a sample are replaced by the sample's
// `attachments[hash]`. One run per log; correctness comes from one score (scoreChoice):
// C/I, true/false or 0/1 (a continuous value only with --threshold). Samples that raised
// (`error`) are left out and counted, as Inspect's own metrics leave them out. A step trace in
// the score's or the sample's metadata, or in a JSON explanation, is aligned like a native
// generic item; otherwise the item is a given outcome.
import type { GenerationAnalysis, NativeItem, RunHeader, StepValue } from "../analysis/types";
import { givenOutcome } from "../analysis/outcome";
import { analyseGeneric } from "../analysis/generic";
import { runTolerance } from "../analysis/analyse";
import type { ReaderEvent } from "../native/reader";
import { describe, isNum, isObj, slug, type ImportContext } from "./context";
import { docLength } from "./lmeval";
import { ZipReader } from "./zip";

const SAMPLE = /^samples\/(.+)_epoch_(\d+)\.json$/;

async function readJson(zip: ZipReader, name: string): Promise<unknown> {
  const buf = await zip.read(name);
  try {
    return JSON.parse(buf.toString("utf8"));
  } catch (e) {
    throw new Error(`${name}: invalid JSON (${(e as Error).message})`);
  }
}

/** Replaces attachment:// references; returns the paths of unresolved ones. */
export function resolveAttachments(v: unknown, att: Record<string, unknown>, path = "", missing: string[] = [], depth = 0): unknown {
  if (depth > 100) return v;
  if (typeof v === "string") {
    if (!v.startsWith("attachment://")) return v;
    const hit = att[v.slice(13)];
    if (typeof hit === "string") return hit;
    missing.push(path || "-");
    return v;
  }
  if (Array.isArray(v)) return v.map((x, i) => resolveAttachments(x, att, `${path}[${i}]`, missing, depth + 1));
  if (isObj(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      out[k] = k === "attachments" ? x : resolveAttachments(x, att, path ? `${path}.${k}` : k, missing, depth + 1);
    return out;
  }
  return v;
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

const errorMessage = (e: unknown) =>
  (isObj(e) && typeof e.message === "string" ? e.message : typeof e === "string" ? e : "error").split("\n")[0].slice(0, 200);

/** The ids shown after `skipped N errored samples`; all are kept in the run's source up to this many. */
const SHOWN_IDS = 10;
const KEPT_IDS = 1000;

export async function* inspectEvents(ctx: ImportContext): AsyncIterable<ReaderEvent> {
  const zip = await ZipReader.open(ctx.path);
  try {
    if (!zip.entries.has("header.json")) {
      return ctx.error(0, "header.json", "the log has no header.json (an unfinished log? Inspect writes it when the eval ends)");
    }
    const head = await readJson(zip, "header.json");
    const ev = isObj(head) && isObj(head.eval) ? head.eval : null;
    if (!ev) return ctx.error(0, "header.json: eval", 'header.json must hold the eval spec under "eval"');
    const task = typeof ev.task === "string" && ev.task ? ev.task : "inspect-task";
    const evalModel = typeof ev.model === "string" && ev.model ? ev.model : null;
    const model = ctx.opts.model ?? evalModel;
    if (!model) return ctx.error(0, "header.json: eval.model", "the log names no model: give --model");
    const listed = listedScores(isObj(head) ? head.results : null);

    const names = [...zip.entries.keys()].filter((n) => SAMPLE.test(n));
    if (names.length === 0) return ctx.error(0, "samples/", "the log holds no samples");
    // summaries.json gives Inspect's own sample order; member order otherwise.
    const order = new Map<string, number>();
    if (zip.entries.has("summaries.json")) {
      const sums = await readJson(zip, "summaries.json");
      if (Array.isArray(sums)) sums.forEach((s, i) => isObj(s) && order.set(`samples/${String(s.id)}_epoch_${String(s.epoch)}.json`, i));
    }
    names.sort((a, b) => (order.get(a) ?? 1e12) - (order.get(b) ?? 1e12) || a.localeCompare(b));

    const source: Record<string, unknown> = {
      format: "inspect-eval",
      harness: "inspect_ai",
      ...(isObj(head) && head.version !== undefined ? { log_version: head.version } : {}),
      ...(isObj(ev.packages) && typeof ev.packages.inspect_ai === "string" ? { inspect_ai: ev.packages.inspect_ai } : {}),
    };
    const config: Record<string, unknown> = {
      scorer: null,
      status: isObj(head) ? (head.status ?? null) : null,
      ...(ctx.opts.threshold !== undefined ? { threshold: ctx.opts.threshold } : {}),
      ...(isObj(ev.config) ? { eval_config: ev.config } : {}),
      ...(isObj(ev.task_args) ? { task_args: ev.task_args } : {}),
    };
    const header: RunHeader = {
      key: ctx.opts.key ?? `inspect__${slug(model)}__${slug(task)}__${slug(String(ev.eval_id ?? ev.run_id ?? ev.task_id ?? "log"))}`,
      model: { name: model },
      benchmark: "generic",
      variant: {
        name: `inspect-${task}`,
        task,
        ...(isObj(ev.dataset) && typeof ev.dataset.name === "string" ? { dataset: ev.dataset.name } : {}),
      },
      config,
      source,
      created_at: typeof ev.created === "string" ? ev.created : null,
    };
    let choice: ScoreChoice | null = null;
    let runYielded = false;
    const errored: string[] = [];
    let completed = 0;
    let firstError = "";
    const tol = runTolerance(header);

    for (const name of names) {
      const raw = await readJson(zip, name);
      ctx.progress.bytes = Math.min(ctx.size, ctx.progress.bytes + (zip.entries.get(name)?.compressedSize ?? 0));
      ctx.progress.lines++;
      if (!isObj(raw)) {
        ctx.error(0, name, `a sample must be a JSON object (got ${describe(raw)})`);
        continue;
      }
      const m = SAMPLE.exec(name)!;
      const id = String(raw.id ?? m[1]);
      if (raw.error !== undefined && raw.error !== null) {
        if (ctx.opts.strict) {
          ctx.error(
            0,
            `${name}: error`,
            `the sample errored (${errorMessage(raw.error)}) and has no scores (--strict refuses errored samples)`,
          );
        } else {
          errored.push(id);
          firstError ||= errorMessage(raw.error);
        }
        continue;
      }
      const att = isObj(raw.attachments) ? raw.attachments : {};
      const missing: string[] = [];
      const s = resolveAttachments(raw, att, "", missing) as Record<string, unknown>;
      if (missing.length) {
        ctx.error(
          0,
          `${name}: ${missing[0]}`,
          `attachment reference not found in the sample's attachments${missing.length > 1 ? ` (and ${missing.length - 1} more)` : ""}`,
        );
        continue;
      }
      const sc = isObj(s.scores) ? s.scores : null;
      if (!sc || Object.keys(sc).length === 0) {
        ctx.error(0, `${name}: scores`, "the sample has no scores (was it scored?)");
        continue;
      }
      if (!choice) {
        const c = scoreChoice(ctx.opts.metric, listed, sc);
        if (typeof c === "string") return ctx.error(0, `${name}: scores`, c);
        choice = c;
        config.scorer = c.scorer;
        if (c.key !== null) config.score_key = c.key;
      }
      if (!runYielded) {
        const run = ctx.run(header);
        if (!run) return;
        yield run;
        runYielded = true;
      }
      const label = choice.key === null ? choice.scorer : `${choice.scorer}.${choice.key}`;
      const score = sc[choice.scorer];
      if (!isObj(score)) {
        ctx.error(
          0,
          `${name}: scores.${choice.scorer}`,
          `no score from scorer '${choice.scorer}' (scorers: ${Object.keys(sc).join(", ")})`,
        );
        continue;
      }
      let value = score.value;
      if (choice.key !== null) {
        if (!isObj(value) || !(choice.key in value)) {
          ctx.error(0, `${name}: scores.${choice.scorer}.value`, `the score has no key '${choice.key}' (got ${describe(value)})`);
          continue;
        }
        value = value[choice.key];
      }
      const verdict = scoreVerdict(value, choice.key ?? choice.scorer, ctx.opts.threshold);
      if ("error" in verdict) {
        ctx.error(
          0,
          `${name}: scores.${choice.scorer}.value${choice.key !== null ? `[${JSON.stringify(choice.key)}]` : ""}`,
          verdict.error,
        );
        if (verdict.global) return; // the same for every sample: one message is enough
        continue;
      }
      const correct = verdict.correct;
      completed++;
      const epochNum = isNum(s.epoch) ? s.epoch : Number(m[2]);
      const text = completionText(s.output);
      const answer = typeof score.answer === "string" ? score.answer : text;
      const trace = stepTrace(score.metadata, s.metadata, score.explanation);
      const length = trace ? trace.reference.length : docLength(s.metadata);
      const counts = stepCounts(score.value);
      const target = targetText(s.target);
      const item: NativeItem = {
        id,
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
        usage: sampleUsage(s, evalModel ?? model),
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
        const g = analyseGeneric({ ...item, reference: trace.reference, steps: trace.steps, answer: answer ?? null }, tol).analysis!;
        analysis = { ...g, firstCorrect: correct, lastCorrect: correct, clean: g.modes.length === 0 && correct };
        item.reference = trace.reference;
        item.steps = trace.steps;
      } else analysis = givenOutcome({ length, correct, answer: answer && answer.trim() ? answer : null });
      const g = ctx.generation(item, analysis, 0, name);
      if (g) yield g;
    }
    if (errored.length) {
      const shown = errored.slice(0, SHOWN_IDS).join(", ") + (errored.length > SHOWN_IDS ? ", …" : "");
      if (completed === 0 && !ctx.failed) {
        ctx.error(
          0,
          "samples/",
          `all ${errored.length} samples errored (first: ${firstError}); Inspect scored none of them, so there is nothing to import`,
        );
        return;
      }
      source.errored_samples = { count: errored.length, ids: errored.slice(0, KEPT_IDS) };
      ctx.note(`skipped ${errored.length} errored sample${errored.length === 1 ? "" : "s"} (ids ${shown})`);
    }
  } finally {
    await zip.close();
  }
}
