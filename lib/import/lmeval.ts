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
import type { NativeItem, RunHeader } from "../analysis/types";
import { givenOutcome } from "../analysis/outcome";
import type { ReaderEvent } from "../native/reader";
import { describe, docLength, isInt, isNum, isObj, slug, type ImportContext } from "./context";
import { jsonRecords } from "./lines";
import {
  generated,
  inferOutputType,
  isMetricValue,
  loglikelihood,
  multipleChoice,
  OUTPUT_TYPES,
  text,
  type Answered,
  type OutputType,
} from "./lmeval-answers";
import { modelOfResults, resultsBeside, stampToIso, taskFromFileName } from "./lmeval-files";

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
