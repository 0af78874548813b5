// lm-evaluation-harness 0.4.x `samples_<task>_<datetime>.jsonl` (written with --log_samples):
// one record per (doc_id, filter) with doc, target, arguments, resps, filtered_resps, filter,
// metrics and one key per metric. One run per file and date-time: the filter that counts
// (--filter, default the first one seen; records of other filters are skipped) and the metric
// that means correct (--metric, default exact_match, else acc, else the record's first metric).
// What the model answered depends on the task's output_type (results_*.json `configs`, else
// the shape of filtered_resps): generate_until → the filtered text (`[invalid]` = no answer
// extracted); multiple_choice → the argmax choice; loglikelihood → the target continuation
// and whether it was greedy. Metrics whose per-sample values are arrays (bleu, f1: corpus-level)
// leave per-item correctness unavailable; the run-level value comes from results_*.json.
import fs from "node:fs";
import path from "node:path";
import type { NativeItem, RunHeader } from "../analysis/types";
import { givenOutcome } from "../analysis/outcome";
import type { ReaderEvent } from "../native/reader";
import { describe, isInt, isNum, isObj, slug, stem, type ImportContext } from "./context";
import { jsonRecords } from "./lines";

const NAME = /^samples_(.+)_(\d{4}-\d{2}-\d{2}T[\d.-]+)$/;

export function taskFromFileName(file: string): { task: string; stamp: string | null } {
  const s = stem(file);
  const m = NAME.exec(s);
  return m ? { task: m[1], stamp: m[2] } : { task: s.replace(/^samples_/, ""), stamp: null };
}

/** lm-eval's file stamp (`2025-08-01T10-20-30.123456`, local time) as ISO text (`2025-08-01T10:20:30.123456`). */
export function stampToIso(stamp: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})(\.\d+)?$/.exec(stamp);
  return m ? `${m[1]}T${m[2]}:${m[3]}:${m[4]}${m[5] ?? ""}` : null;
}

/** The results_<stamp>.json beside the samples file (the one of the same stamp, else the only one). */
export function resultsBeside(file: string, stamp: string | null): Record<string, unknown> | null {
  const dir = path.dirname(file);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => /^results_.*\.json$/.test(n));
  } catch {
    return null;
  }
  const pick = names.find((n) => stamp && n === `results_${stamp}.json`) ?? (names.length === 1 ? names[0] : undefined);
  if (!pick) return null;
  try {
    const r = JSON.parse(fs.readFileSync(path.join(dir, pick), "utf8")) as unknown;
    return isObj(r) ? r : null;
  } catch {
    return null;
  }
}

/** The model a results_*.json names: model_name, else `pretrained=` of model_args. */
export function modelOfResults(r: Record<string, unknown> | null): string | undefined {
  if (!r) return undefined;
  const cfg = isObj(r.config) ? r.config : {};
  const args = typeof cfg.model_args === "string" ? /(?:^|,)pretrained=([^,]+)/.exec(cfg.model_args)?.[1] : undefined;
  return [r.model_name, cfg.model_name, args, cfg.model].find((v) => typeof v === "string" && v !== "") as string | undefined;
}

/** Length of an lm-eval doc: its own step count when it has one, else 1 (no step notion). */
export function docLength(doc: unknown): number {
  if (!isObj(doc)) return 1;
  for (const k of ["length", "num_steps", "n_steps", "steps", "L"]) {
    const v = doc[k];
    if (isInt(v) && v >= 1) return v;
  }
  return 1;
}

const text = (v: unknown): string | null => (typeof v === "string" ? v : v === undefined || v === null ? null : JSON.stringify(v));

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
const OUTPUT_TYPES: readonly string[] = ["generate_until", "multiple_choice", "loglikelihood", "loglikelihood_rolling"];

/** Output type from the shape when results_*.json does not say: pairs are log-likelihoods. */
function inferOutputType(filtered: unknown[]): OutputType {
  if (filtered.length > 0 && filtered.every((f) => llPair(f) !== null)) return filtered.length > 1 ? "multiple_choice" : "loglikelihood";
  return "generate_until";
}

const isMetricValue = (v: unknown) => typeof v === "boolean" || isNum(v);

interface Answered {
  answer: string | null;
  output: string | null;
  unparseable?: boolean;
  metadata: Record<string, unknown>;
  referenceAnswer?: string | null;
}

function multipleChoice(rec: Record<string, unknown>, filtered: unknown[]): Answered | string {
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

function loglikelihood(rec: Record<string, unknown>, filtered: unknown[]): Answered | string {
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

function generated(rec: Record<string, unknown>, filteredAnswer: unknown, raw: string | null): Answered {
  const answer = text(filteredAnswer);
  if (answer === LM_INVALID) {
    // No answer could be extracted: a format error when the model wrote something, else missing.
    const wrote = raw !== null && raw.trim() !== "";
    return { answer: null, output: raw, unparseable: wrote, metadata: { extracted: LM_INVALID } };
  }
  return { answer: answer === "" ? null : answer, output: raw, metadata: {}, referenceAnswer: text(rec.target) };
}

export async function* lmEvalEvents(ctx: ImportContext): AsyncIterable<ReaderEvent> {
  const { task, stamp } = taskFromFileName(ctx.file);
  const results = resultsBeside(ctx.file, stamp);
  const model = ctx.opts.model ?? modelOfResults(results);
  const cfg = results && isObj(results.configs) && isObj(results.configs[task]) ? results.configs[task] : {};
  const configured = typeof cfg.output_type === "string" && OUTPUT_TYPES.includes(cfg.output_type) ? (cfg.output_type as OutputType) : null;
  const resultsDate = results && isNum(results.date) ? new Date(results.date * 1000).toISOString() : null;
  const createdAt = (stamp ? stampToIso(stamp) : null) ?? resultsDate;
  let filter: string | null = ctx.opts.filter ?? null;
  let metric: string | null = ctx.opts.metric ?? null;
  let header: RunHeader | null = null;
  let outputType: OutputType | null = configured;
  let corpus = false;
  const filters = new Set<string>();
  for await (const { line, rec } of jsonRecords(ctx)) {
    const f = rec.filter ?? "none";
    if (typeof f !== "string") {
      ctx.error(line, "filter", `filter must be text (got ${describe(f)})`);
      continue;
    }
    filters.add(f);
    filter ??= f;
    if (f !== filter) continue;
    if (!isInt(rec.doc_id) && typeof rec.doc_id !== "string") {
      ctx.error(line, "doc_id", `doc_id must be an integer or text (got ${describe(rec.doc_id)})`);
      continue;
    }
    if (!Array.isArray(rec.filtered_resps)) {
      ctx.error(line, "filtered_resps", `filtered_resps must be a list (got ${describe(rec.filtered_resps)})`);
      continue;
    }
    if (metric === null) {
      const listed = Array.isArray(rec.metrics) ? rec.metrics.filter((m): m is string => typeof m === "string") : [];
      metric =
        ["exact_match", "acc"].find((m) => isMetricValue(rec[m])) ??
        listed.find((m) => isMetricValue(rec[m])) ??
        listed.find((m) => Array.isArray(rec[m])) ??
        null;
      if (metric === null) {
        ctx.error(line, "metrics", "no metric found in the record: give --metric");
        return;
      }
    }
    if (!header) {
      if (!model) {
        ctx.error(line, "-", "the model is not in the samples file and no results_*.json is beside it: give --model");
        return;
      }
      outputType ??= inferOutputType(rec.filtered_resps);
      corpus = Array.isArray(rec[metric]);
      const taskResults = results && isObj(results.results) && isObj(results.results[task]) ? results.results[task] : {};
      const runValue = taskResults[`${metric},${filter}`] ?? taskResults[metric];
      header = {
        key: ctx.opts.key ?? `lm-eval__${slug(model)}__${slug(task)}__${slug(filter)}${stamp ? `__${slug(stamp)}` : ""}`,
        model: { name: model },
        benchmark: "generic",
        variant: { name: `lm-eval-${task}`, task },
        config: {
          filter,
          metric,
          output_type: outputType,
          ...(corpus
            ? { per_item_correctness: "unavailable", corpus_metric: { name: metric, filter, value: isNum(runValue) ? runValue : null } }
            : {}),
        },
        source: { format: "lm-eval-samples", harness: "lm-evaluation-harness", ...(stamp ? { datetime: stamp } : {}) },
        created_at: createdAt,
      };
      const run = ctx.run(header, line);
      if (!run) return;
      yield run;
    }
    const v = rec[metric];
    if (v === undefined) {
      ctx.error(line, metric, `the record has no value for metric '${metric}'`);
      continue;
    }
    if (corpus ? !Array.isArray(v) : !isMetricValue(v)) {
      ctx.error(
        line,
        metric,
        corpus
          ? `metric '${metric}' is corpus-level in this file: every record's value must be a list (got ${describe(v)})`
          : `metric '${metric}' must be a number or true/false (got ${describe(v)})`,
      );
      continue;
    }
    const resps = rec.resps;
    const raws = Array.isArray(resps) && Array.isArray(resps[0]) ? resps[0] : Array.isArray(resps) ? resps.slice(0, 1) : [];
    const length = docLength(rec.doc);
    const base = { doc_id: rec.doc_id, doc: rec.doc ?? null, target: rec.target ?? null, task };
    const correct = !corpus && (v === true || (typeof v === "number" && v >= 1 - 1e-9));
    const metricMeta = {
      filter,
      metric,
      value: corpus ? null : v,
      metrics: Object.fromEntries(Object.entries(rec).filter(([k, x]) => isNum(x) && k !== "doc_id")),
    };

    // Repeats: one response per repeat; when the filter kept one answer per repeat each is an epoch.
    const perRepeat =
      outputType === "generate_until" &&
      raws.length > 1 &&
      Array.isArray(rec.filtered_resps[0]) &&
      rec.filtered_resps[0].length === raws.length;
    const tries: { answered: Answered | string; epoch: number; correct: boolean }[] = [];
    if (perRepeat) {
      const answers = rec.filtered_resps[0] as unknown[];
      const target = (text(rec.target) ?? "").trim();
      answers.forEach((a, r) => {
        const answered = generated(rec, a, text(raws[r]));
        // lm-eval scores only the filtered answer; a repeat is right when its answer is the target.
        const ok = !corpus && typeof answered !== "string" && answered.answer !== null && answered.answer.trim() === target;
        tries.push({ answered, epoch: r, correct: ok });
      });
    } else {
      const answered =
        outputType === "multiple_choice"
          ? multipleChoice(rec, rec.filtered_resps)
          : outputType === "loglikelihood"
            ? loglikelihood(rec, rec.filtered_resps)
            : generated(rec, rec.filtered_resps[0], text(raws[0]));
      tries.push({ answered, epoch: 0, correct });
    }
    for (const t of tries) {
      if (typeof t.answered === "string") {
        ctx.error(line, "filtered_resps", t.answered);
        break;
      }
      const a = t.answered;
      const item: NativeItem = {
        id: `doc-${rec.doc_id}`,
        length,
        epoch: t.epoch,
        input: { ...base, ...(a.referenceAnswer ? { reference_answer: a.referenceAnswer } : {}) },
        output: a.output,
        answer: a.answer,
        metadata: {
          ...metricMeta,
          ...a.metadata,
          ...(perRepeat
            ? { repeat: t.epoch, repeats: raws.length, correct_by: "answer = target" }
            : raws.length > 1
              ? { repeats: raws.length }
              : {}),
          ...(corpus ? { correct: null } : {}),
        },
      };
      const analysis = givenOutcome({ length, correct: t.correct, answer: a.answer, unparseable: a.unparseable, unknown: corpus });
      const ev = ctx.generation(item, analysis, line, "doc_id");
      if (ev) yield ev;
    }
  }
  if (!header && !ctx.failed) {
    ctx.error(
      0,
      "filter",
      filter && filters.size && !filters.has(filter)
        ? `no record has filter '${filter}' (filters: ${[...filters].join(", ")})`
        : "no samples in the file",
    );
  }
}
