// lm-evaluation-harness `samples_<task>_<datetime>.jsonl` (written with --log_samples): one
// record per (doc_id, filter) with doc, target, resps, filtered_resps, filter, metrics and one
// key per metric. One run per file: the filter that counts (--filter, default the first one
// seen; records of other filters are skipped) and the metric that means correct (--metric,
// default exact_match, else acc, else the record's first metric); correct ⇔ value = 1.
// The model comes from --model or the results_<datetime>.json beside the file.
import fs from "node:fs";
import path from "node:path";
import type { RunHeader } from "../analysis/types";
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

/** The model named by a results_<stamp>.json beside the samples file, when there is one. */
export function modelFromResults(file: string, stamp: string | null): { model: string; results: Record<string, unknown> } | null {
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
    const r = JSON.parse(fs.readFileSync(path.join(dir, pick), "utf8")) as Record<string, unknown>;
    const cfg = isObj(r.config) ? r.config : {};
    const args = typeof cfg.model_args === "string" ? /(?:^|,)pretrained=([^,]+)/.exec(cfg.model_args)?.[1] : undefined;
    const model = [r.model_name, cfg.model_name, args, cfg.model].find((v) => typeof v === "string" && v !== "") as string | undefined;
    return model ? { model, results: r } : null;
  } catch {
    return null;
  }
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

export async function* lmEvalEvents(ctx: ImportContext): AsyncIterable<ReaderEvent> {
  const { task, stamp } = taskFromFileName(ctx.file);
  const model = ctx.opts.model ?? modelFromResults(ctx.file, stamp)?.model;
  let filter: string | null = ctx.opts.filter ?? null;
  let metric: string | null = ctx.opts.metric ?? null;
  let header: RunHeader | null = null;
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
    if (metric === null) {
      const listed = Array.isArray(rec.metrics) ? rec.metrics.filter((m): m is string => typeof m === "string") : [];
      metric = ["exact_match", "acc"].find((m) => m in rec) ?? listed.find((m) => m in rec) ?? null;
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
      header = {
        key: ctx.opts.key ?? `lm-eval__${slug(model)}__${slug(task)}__${slug(filter)}`,
        model: { name: model },
        benchmark: "generic",
        variant: { name: `lm-eval-${task}`, task },
        config: { filter, metric },
        source: { format: "lm-eval-samples", harness: "lm-evaluation-harness", ...(stamp ? { datetime: stamp } : {}) },
        created_at: null,
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
    if (typeof v !== "boolean" && !isNum(v)) {
      ctx.error(line, metric, `metric '${metric}' must be a number or true/false (got ${describe(v)})`);
      continue;
    }
    if (!Array.isArray(rec.filtered_resps)) {
      ctx.error(line, "filtered_resps", `filtered_resps must be a list (got ${describe(rec.filtered_resps)})`);
      continue;
    }
    const correct = v === true || (typeof v === "number" && v >= 1 - 1e-9);
    const answer = text(rec.filtered_resps[0]);
    const resps = rec.resps;
    const raw = Array.isArray(resps) && Array.isArray(resps[0]) ? text(resps[0][0]) : text(Array.isArray(resps) ? resps[0] : null);
    const length = docLength(rec.doc);
    const item = {
      id: `doc-${rec.doc_id}`,
      length,
      epoch: 0,
      input: { doc_id: rec.doc_id, doc: rec.doc ?? null, target: rec.target ?? null, task },
      output: raw,
      answer,
      metadata: {
        filter,
        metric,
        value: v,
        metrics: Object.fromEntries(Object.entries(rec).filter(([k, x]) => isNum(x) && k !== "doc_id")),
      },
    };
    const ev = ctx.generation(item, givenOutcome({ length, correct, answer: answer === "" ? null : answer }), line, "doc_id");
    if (ev) yield ev;
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
