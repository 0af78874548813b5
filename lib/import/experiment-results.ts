// measuring-execution `experiment_results.json`: run info, the configs used, a summary and
// detailed_experiment_outputs.evaluation_metrics.per_instance_results. The harness writes every
// list of plain values as Python `str()` text ("[1.0, 0.98]", "['<NoOp>', 5]"), read here with
// the safe literal parser. Raw texts come from detailed_experiment_outputs.llm_raw_outputs when
// they line up with the instances; otherwise a turn text is rebuilt from the parsed answer.
import type { ReaderEvent } from "../native/reader";
import { describe, isInt, isObj, type ImportContext } from "./context";
import { dictSumEvent, measuringHeader, runDirInfo, synthTurn } from "./measuring-common";
import { tryPyLiteral, type PyValue } from "./pylit";

/** A list stored either as JSON or as Python literal text. */
function readList(ctx: ImportContext, v: unknown, at: string): PyValue[] | null {
  if (Array.isArray(v)) return v as PyValue[];
  if (typeof v === "string") {
    const r = tryPyLiteral(v);
    if (r.ok && Array.isArray(r.value)) return r.value;
    ctx.error(0, at, r.ok ? `must be a list (got ${describe(r.value)})` : `cannot read the Python list: ${r.error}`);
    return null;
  }
  ctx.error(0, at, `must be a list or its Python text (got ${describe(v)})`);
  return null;
}

const obj = (v: unknown) => (isObj(v) ? v : {});

export function* experimentResultsEvents(ctx: ImportContext, doc: Record<string, unknown>): Generator<ReaderEvent> {
  const runInfo = obj(doc.run_info);
  const modelParams = obj(doc.model_parameters_used);
  const common = obj(doc.common_settings_used);
  const exp = obj(doc.experiment_parameters_used);
  const detailed = obj(doc.detailed_experiment_outputs);
  const evalMetrics = obj(detailed.evaluation_metrics);
  const per = evalMetrics.per_instance_results;
  const perAt = "detailed_experiment_outputs.evaluation_metrics.per_instance_results";
  if (!Array.isArray(per) || per.length === 0)
    return ctx.error(0, perAt, `per_instance_results must be a non-empty list (got ${describe(per)})`);

  const fullName = [modelParams.name, modelParams.model_name, common.model_name].find((v) => typeof v === "string" && v.trim() !== "") as
    string | undefined;
  const dir = runDirInfo(ctx.file);
  const model = ctx.opts.model ?? (fullName ? fullName.split("/").pop()! : dir?.model);
  if (!model) return ctx.error(0, "model_parameters_used.name", "the model is not named in this file: give --model");
  const K = exp.working_capacity ?? dir?.K ?? 1;
  if (!isInt(K) || K < 1)
    return ctx.error(0, "experiment_parameters_used.working_capacity", `working_capacity must be a positive integer (got ${describe(K)})`);
  const multiTurn =
    typeof exp.is_multi_turn === "boolean"
      ? exp.is_multi_turn
      : typeof modelParams.multi_turn === "boolean"
        ? modelParams.multi_turn
        : (dir?.multiTurn ?? false);
  const horizon = isInt(exp.horizon_length) ? exp.horizon_length : 0;
  const stamp = typeof runInfo.run_timestamp === "string" ? runInfo.run_timestamp : (dir?.timestamp ?? null);
  const config: Record<string, unknown> = {};
  for (const k of ["temperature", "top_p", "thinking_mode", "cot", "provider", "max_tokens"])
    if (k in modelParams) config[k] = modelParams[k];
  for (const k of ["dict_size", "num_samples", "min_input_value", "max_input_value", "experiment_type"]) if (k in exp) config[k] = exp[k];
  if (typeof runInfo.experiment_key === "string") config.experiment_key = runInfo.experiment_key;
  const header = measuringHeader(ctx, { model, K, multiTurn, horizon, stamp, config, format: "experiment_results" });
  const run = ctx.run(header);
  if (!run) return;
  yield run;

  const raws = rawOutputs(detailed.llm_raw_outputs, per.length);
  for (const [i, inst] of per.entries()) {
    const at = `${perAt}[${i}]`;
    if (!isObj(inst)) {
      ctx.error(0, at, `an instance result must be an object (got ${describe(inst)})`);
      continue;
    }
    const keys = readList(ctx, inst.input_keys, `${at}.input_keys`);
    const values = readList(ctx, inst.input_values, `${at}.input_values`);
    const parsed = readList(ctx, inst.parsed_llm_output, `${at}.parsed_llm_output`);
    if (!keys || !values || !parsed) continue;
    const T = Math.ceil(keys.length / K);
    const output = multiTurn ? turnTexts(raws?.[i], parsed, T) : singleText(raws?.[i], parsed);
    const id = isInt(inst.prompt_index) ? inst.prompt_index : i;
    const ev = dictSumEvent(ctx, header, { id: `instance-${id}`, keys, values, output, at: `${at}.input_keys` });
    if (!ev || ev.kind !== "generation") continue;
    if (inst.cumsum !== undefined) {
      const cumsum = readList(ctx, inst.cumsum, `${at}.cumsum`);
      const sums = values.reduce<number[]>((acc, v) => (acc.push((acc.at(-1) ?? 0) + (v as number)), acc), []);
      if (cumsum && (cumsum.length !== sums.length || cumsum.some((c, j) => c !== sums[j]))) {
        ctx.error(0, `${at}.cumsum`, "cumsum is not the running sum of input_values");
        continue;
      }
    }
    ctx.progress.lines++;
    yield ev;
  }
}

/** The raw outputs when they are one per instance; null otherwise (texts are rebuilt). */
function rawOutputs(v: unknown, n: number): unknown[] | null {
  let list: unknown = v;
  if (typeof v === "string") {
    const r = tryPyLiteral(v);
    list = r.ok ? r.value : null;
  }
  return Array.isArray(list) && list.length === n ? list : null;
}

function singleText(raw: unknown, parsed: PyValue[]): string {
  if (typeof raw === "string" && raw.includes("<answer>")) return raw;
  if (parsed.length === 1 && parsed[0] === "<NoOp>") return typeof raw === "string" ? raw : "";
  return `<answer>${parsed.map((p) => (typeof p === "number" ? String(p) : "?")).join(", ")}</answer>`;
}

/** Turn texts from a raw output (a Python list of turns, or turns joined by \x1f or |). */
function turnTexts(raw: unknown, parsed: PyValue[], T: number): string[] {
  let turns: unknown[] | null = null;
  if (Array.isArray(raw)) turns = raw;
  else if (typeof raw === "string") {
    const r = raw.trimStart().startsWith("[") ? tryPyLiteral(raw) : null;
    if (r?.ok && Array.isArray(r.value)) turns = r.value;
    else turns = raw.split(raw.includes("\x1f") ? "\x1f" : "|");
  }
  if (turns && turns.length === T && turns.every((t) => typeof t === "string")) return turns as string[];
  return Array.from({ length: T }, (_, t) => synthTurn(parsed[t]));
}
