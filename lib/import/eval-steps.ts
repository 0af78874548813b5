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
  log: number; // where it is in the file, for errors: step_logs[log].instances[instance]
  instance: number;
}

/** The arrays one after another (`flatMap` took ~9 µs an instance of 50 turns, a loop ~1). */
function concat(parts: unknown[][]): unknown[] {
  const all: unknown[] = [];
  for (const p of parts) for (let i = 0; i < p.length; i++) all.push(p[i]);
  return all;
}

const instanceAt = (log: number, instance: number) => `step_logs[${log}].instances[${instance}]`;

/**
 * The file's turns regrouped per instance, one step log at a time (lib/import/json-document.ts
 * hands them over as they are parsed, so the document is never whole in memory). Errors are
 * kept until the file is known to be this format.
 */
export class StepLogTurns {
  readonly byInstance = new Map<number, Map<number, Turn>>();
  readonly errors: { at: string; message: string }[] = [];
  K = 0;
  filled = false;

  add(log: unknown, s: number) {
    const at = `step_logs[${s}]`;
    const error = (where: string, message: string) => void this.errors.push({ at: where, message });
    if (!isObj(log)) return error(at, `a step log must be an object (got ${describe(log)})`);
    if (!isInt(log.step) || log.step < 0) return error(`${at}.step`, `step must be a non-negative integer (got ${describe(log.step)})`);
    if (!Array.isArray(log.instances)) return error(`${at}.instances`, `instances must be an array (got ${describe(log.instances)})`);
    if (log.filled_history === true) this.filled = true;
    const step = log.step;
    log.instances.forEach((inst, j) => {
      const iat = instanceAt(s, j);
      if (!isObj(inst)) return error(iat, `an instance must be an object (got ${describe(inst)})`);
      if (!isInt(inst.instance_id) || inst.instance_id < 0)
        return error(`${iat}.instance_id`, `instance_id must be a non-negative integer (got ${describe(inst.instance_id)})`);
      if (!Array.isArray(inst.input_given))
        return error(`${iat}.input_given`, `input_given must be the turn's keys (got ${describe(inst.input_given)})`);
      if (!Array.isArray(inst.input_values))
        return error(`${iat}.input_values`, `input_values must be the turn's values (got ${describe(inst.input_values)})`);
      const raw = inst.raw_llm_output;
      if (raw !== undefined && raw !== null && typeof raw !== "string")
        return error(`${iat}.raw_llm_output`, `raw_llm_output must be text (got ${describe(raw)})`);
      const text = typeof raw === "string" && raw !== "N/A" ? raw : synthTurn(inst.parsed_answer);
      let turns = this.byInstance.get(inst.instance_id);
      if (!turns) this.byInstance.set(inst.instance_id, (turns = new Map()));
      if (turns.has(step)) return error(`${iat}.instance_id`, `instance ${inst.instance_id} appears twice at step ${step}`);
      turns.set(step, { keys: inst.input_given, values: inst.input_values, text, expected: inst.expected_answer, log: s, instance: j });
      if (step === 0) this.K = Math.max(this.K, inst.input_given.length);
    });
  }
}

/** `logs` holds the document's step logs, regrouped (the parsed document's `step_logs` is only their count). */
export function* evalStepEvents(ctx: ImportContext, logs: StepLogTurns): Generator<ReaderEvent> {
  for (const e of logs.errors) ctx.error(0, e.at, e.message);
  const { byInstance, K, filled } = logs;
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
    turnMap.clear(); // what is imported is not kept
    const ev = dictSumEvent(ctx, header, {
      id: `instance-${id}`,
      keys: concat(turns.map((t) => t.keys)),
      values: concat(turns.map((t) => t.values)),
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
          `${instanceAt(turns[t].log, turns[t].instance)}.expected_answer`,
          `expected_answer ${JSON.stringify(want)} is not the running sum ${row.expected} of the keys so far`,
        );
      }
    });
    ctx.progress.lines++;
    yield ev;
  }
}
