// measuring-execution `eval_step_results.json` (multi-turn runs): {"step_logs":[{step,
// filled_history, instances:[{instance_id, input_given, input_values, raw_llm_output,
// parsed_answer, expected_answer, accuracies, is_noop, is_invalid_format}]}]}: one entry per
// turn holding every instance. Regrouped per instance into multi-turn dict-sum items; each
// turn's expected_answer must equal the recomputed running sum.
import { maxOf } from "../analysis/stats";
import type { ReaderEvent } from "../native/reader";
import { describe, isInt, isObj, type ImportContext } from "./context";
import { dictSumEvent, measuringHeader, runDirInfo, synthTurn } from "./measuring-common";

interface Turn {
  keys: unknown[];
  values: unknown[];
  text: string;
  expected: unknown;
  at: string;
}

export function* evalStepEvents(ctx: ImportContext, doc: Record<string, unknown>): Generator<ReaderEvent> {
  const logs = doc.step_logs as unknown[];
  const byInstance = new Map<number, Map<number, Turn>>();
  let K = 0;
  let filled = false;
  logs.forEach((log, s) => {
    const at = `step_logs[${s}]`;
    if (!isObj(log)) return ctx.error(0, at, `a step log must be an object (got ${describe(log)})`);
    if (!isInt(log.step) || log.step < 0)
      return ctx.error(0, `${at}.step`, `step must be a non-negative integer (got ${describe(log.step)})`);
    if (!Array.isArray(log.instances))
      return ctx.error(0, `${at}.instances`, `instances must be an array (got ${describe(log.instances)})`);
    if (log.filled_history === true) filled = true;
    log.instances.forEach((inst, j) => {
      const iat = `${at}.instances[${j}]`;
      if (!isObj(inst)) return ctx.error(0, iat, `an instance must be an object (got ${describe(inst)})`);
      if (!isInt(inst.instance_id) || inst.instance_id < 0)
        return ctx.error(0, `${iat}.instance_id`, `instance_id must be a non-negative integer (got ${describe(inst.instance_id)})`);
      if (!Array.isArray(inst.input_given))
        return ctx.error(0, `${iat}.input_given`, `input_given must be the turn's keys (got ${describe(inst.input_given)})`);
      if (!Array.isArray(inst.input_values))
        return ctx.error(0, `${iat}.input_values`, `input_values must be the turn's values (got ${describe(inst.input_values)})`);
      const raw = inst.raw_llm_output;
      if (raw !== undefined && raw !== null && typeof raw !== "string")
        return ctx.error(0, `${iat}.raw_llm_output`, `raw_llm_output must be text (got ${describe(raw)})`);
      const text = typeof raw === "string" && raw !== "N/A" ? raw : synthTurn(inst.parsed_answer);
      let turns = byInstance.get(inst.instance_id);
      if (!turns) byInstance.set(inst.instance_id, (turns = new Map()));
      if (turns.has(log.step as number))
        return ctx.error(0, `${iat}.instance_id`, `instance ${inst.instance_id} appears twice at step ${log.step}`);
      turns.set(log.step as number, { keys: inst.input_given, values: inst.input_values, text, expected: inst.expected_answer, at: iat });
      if (log.step === 0) K = Math.max(K, inst.input_given.length);
    });
  });
  if (byInstance.size === 0) return ctx.failed ? undefined : ctx.error(0, "step_logs", "no instances to import");
  if (K < 1) return ctx.error(0, "step_logs", "no step 0 (first turn) in the file");

  const dir = runDirInfo(ctx.file);
  const model = ctx.opts.model ?? dir?.model;
  if (!model) return ctx.error(0, "-", "the model is not in this file: give --model (or keep the harness's run folder name)");
  const T = maxOf([...byInstance.values()].map((t) => t.size));
  const horizon = [...byInstance.values()][0] ? [...[...byInstance.values()][0].values()].reduce((n, t) => n + t.keys.length, 0) : 0;
  const header = measuringHeader(ctx, {
    model,
    K,
    multiTurn: true,
    horizon,
    stamp: dir?.timestamp ?? null,
    config: { filled_history: filled, turns: T, ...(dir ? { cot: dir.cot, thinking: dir.thinking } : {}) },
    format: "eval_step_results",
  });
  if (ctx.failed) return;
  const run = ctx.run(header);
  if (!run) return;
  yield run;

  for (const [id, turnMap] of [...byInstance.entries()].sort((a, b) => a[0] - b[0])) {
    const steps = [...turnMap.keys()].sort((a, b) => a - b);
    if (steps.some((s, i) => s !== i)) {
      ctx.error(0, `step_logs (instance ${id})`, `turns must be 0..${steps.length - 1} without gaps (got ${steps.join(", ")})`);
      continue;
    }
    const turns = steps.map((s) => turnMap.get(s)!);
    const ev = dictSumEvent(ctx, header, {
      id: `instance-${id}`,
      keys: turns.flatMap((t) => t.keys),
      values: turns.flatMap((t) => t.values),
      output: turns.map((t) => t.text),
      at: `step_logs[*].instances (instance ${id})`,
    });
    if (!ev || ev.kind !== "generation") continue;
    // The harness's expected answer per turn must be our recomputed running sum.
    ev.analysis.turns?.forEach((row, t) => {
      const want = turns[t]?.expected;
      if (want !== undefined && want !== row.expected) {
        ctx.error(
          0,
          `${turns[t].at}.expected_answer`,
          `expected_answer ${JSON.stringify(want)} is not the running sum ${row.expected} of the keys so far`,
        );
      }
    });
    ctx.progress.lines++;
    yield ev;
  }
}
