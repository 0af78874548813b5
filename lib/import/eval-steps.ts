// measuring-execution `eval_step_results.json` (multi-turn runs): {"step_logs":[{step,
// filled_history, instances:[{instance_id, input_given, input_values, raw_llm_output,
// parsed_answer, expected_answer, accuracies, is_noop, is_invalid_format}]}]}: one entry per
// turn holding every instance. Regrouped per instance into multi-turn dict-sum items; each
// turn's expected_answer must equal the recomputed running sum.
import { maxOf } from "../analysis/stats";
import type { RunHeader } from "../analysis/types";
import type { ReaderEvent } from "../native/reader";
import { describe, isInt, isObj, type ImportContext } from "./context";
import { dictSumEvent, measuringHeader, runDirInfo, synthTurn } from "./measuring-common";

export interface Turn {
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

export const instanceAt = (log: number, instance: number) => `step_logs[${log}].instances[${instance}]`;

/** step_logs[log].instances[instance] as a turn of its instance, or what is wrong with it. */
export function checkedTurn(inst: unknown, log: number, instance: number): { id: number; turn: Turn } | { at: string; message: string } {
  const iat = instanceAt(log, instance);
  if (!isObj(inst)) return { at: iat, message: `an instance must be an object (got ${describe(inst)})` };
  if (!isInt(inst.instance_id) || inst.instance_id < 0)
    return { at: `${iat}.instance_id`, message: `instance_id must be a non-negative integer (got ${describe(inst.instance_id)})` };
  if (!Array.isArray(inst.input_given))
    return { at: `${iat}.input_given`, message: `input_given must be the turn's keys (got ${describe(inst.input_given)})` };
  if (!Array.isArray(inst.input_values))
    return { at: `${iat}.input_values`, message: `input_values must be the turn's values (got ${describe(inst.input_values)})` };
  const raw = inst.raw_llm_output;
  if (raw !== undefined && raw !== null && typeof raw !== "string")
    return { at: `${iat}.raw_llm_output`, message: `raw_llm_output must be text (got ${describe(raw)})` };
  const text = typeof raw === "string" && raw !== "N/A" ? raw : synthTurn(inst.parsed_answer);
  return {
    id: inst.instance_id,
    turn: { keys: inst.input_given, values: inst.input_values, text, expected: inst.expected_answer, log, instance },
  };
}

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
    log.instances.forEach((inst, j) => this.addTurn(checkedTurn(inst, s, j), step));
  }

  /**
   * One checked turn at `step` (its step log's own members checked by `add` or its caller);
   * `already`: instances imported before, any turn of which appears twice.
   */
  addTurn(checked: ReturnType<typeof checkedTurn>, step: number, already?: ReadonlySet<number>) {
    if ("message" in checked) return void this.errors.push(checked);
    const { id, turn } = checked;
    const twice = () => ({
      at: `${instanceAt(turn.log, turn.instance)}.instance_id`,
      message: `instance ${id} appears twice at step ${step}`,
    });
    if (already?.has(id)) return void this.errors.push(twice());
    let turns = this.byInstance.get(id);
    if (!turns) this.byInstance.set(id, (turns = new Map()));
    if (turns.has(step)) return void this.errors.push(twice());
    turns.set(step, turn);
    if (step === 0) this.K = Math.max(this.K, turn.keys.length);
  }
}

/** `logs` holds the document's step logs, regrouped (the parsed document's `step_logs` is only their count). */
export function* evalStepEvents(ctx: ImportContext, logs: StepLogTurns): Generator<ReaderEvent> {
  for (const e of logs.errors) ctx.error(0, e.at, e.message);
  const { byInstance, K, filled } = logs;
  if (byInstance.size === 0) return ctx.failed ? undefined : ctx.error(0, "step_logs", "no instances to import");
  if (K < 1) return ctx.error(0, "step_logs", "no step 0 (first turn) in the file");
  const T = maxOf([...byInstance.values()].map((t) => t.size));
  const horizon = [...byInstance.values()][0] ? [...[...byInstance.values()][0].values()].reduce((n, t) => n + t.keys.length, 0) : 0;
  const header = stepLogsHeader(ctx, { K, T, horizon, filled });
  if (!header) return;
  const run = ctx.run(header);
  if (!run) return;
  yield run;
  yield* instanceEvents(ctx, header, byInstance);
}

/** The run's header (null once the context has failed). */
export function stepLogsHeader(ctx: ImportContext, { K, T, horizon, filled }: { K: number; T: number; horizon: number; filled: boolean }) {
  const dir = runDirInfo(ctx.file);
  const model = ctx.opts.model ?? dir?.model;
  if (!model) {
    ctx.error(0, "-", "the model is not in this file: give --model (or keep the harness's run folder name)");
    return null;
  }
  const header = measuringHeader(ctx, {
    model,
    K,
    multiTurn: true,
    horizon,
    stamp: dir?.timestamp ?? null,
    config: { filled_history: filled, turns: T, ...(dir ? { cot: dir.cot, thinking: dir.thinking } : {}) },
    format: "eval_step_results",
  });
  return ctx.failed ? null : header;
}

/** The instances of `byInstance` in the order of their ids, each once its turns are 0, 1, … without gaps. */
export function* instanceEvents(ctx: ImportContext, header: RunHeader, byInstance: Map<number, Map<number, Turn>>): Generator<ReaderEvent> {
  for (const [id, turnMap] of [...byInstance.entries()].sort((a, b) => a[0] - b[0])) {
    const steps = [...turnMap.keys()].sort((a, b) => a - b);
    if (steps.some((s, i) => s !== i)) {
      ctx.error(0, `step_logs (instance ${id})`, `turns must be 0..${steps.length - 1} without gaps (got ${steps.join(", ")})`);
      continue;
    }
    const turns = steps.map((s) => turnMap.get(s)!);
    turnMap.clear(); // what is imported is not kept
    const ev = instanceEvent(ctx, header, id, turns);
    if (ev) yield ev;
  }
}

/** Instance `id` from its turns in order, checked against the harness's expected answers. */
export function instanceEvent(ctx: ImportContext, header: RunHeader, id: number, turns: Turn[]): ReaderEvent | null {
  const ev = dictSumEvent(ctx, header, {
    id: `instance-${id}`,
    keys: concat(turns.map((t) => t.keys)),
    values: concat(turns.map((t) => t.values)),
    output: turns.map((t) => t.text),
    at: `step_logs[*].instances (instance ${id})`,
  });
  if (!ev || ev.kind !== "generation") return null;
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
  return ev;
}
