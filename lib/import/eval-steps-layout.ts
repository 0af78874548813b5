// measuring-execution's eval_step_results.json read instance by instance: each turn's log lists
// every instance, so regrouped as parsed (lib/import/eval-steps.ts) no instance is whole before
// the whole document is parsed, ~0.6 s of a 36 MB file during which the loader had nothing to
// write. With the document's layout (lib/import/json-layout.ts) an instance's turns are parsed
// when it is imported. Only a regular document is read so (the logs' steps 0, 1, … once each,
// every log listing the same instances in the same order of increasing ids, its first turns
// valid): any other goes the regrouping way, which says what is wrong as before. An
// irregularity found later (an instance at the same place of every log but one) hands what is
// left to the regrouping way; what was imported before it stays, being whole and valid.
import type { RunHeader } from "../analysis/types";
import type { ReaderEvent } from "../native/reader";
import { isInt, isObj, type ImportContext } from "./context";
import {
  checkedTurn,
  evalStepEvents,
  instanceAt,
  instanceEvent,
  instanceEvents,
  stepLogsHeader,
  StepLogTurns,
  type Turn,
} from "./eval-steps";
import type { DocumentLayout } from "./json-layout";

export interface InstanceReading {
  bytes: Buffer;
  layout: DocumentLayout;
  /** the step of each log, in the file's order */
  steps: number[];
  /** the log holding each turn: byTurn[t] is the index of the log whose step is t */
  byTurn: number[];
  /** the first turn of each instance, in the order of the logs' lists (their ids increasing) */
  first: { id: number; turn: Turn }[];
  K: number;
  filled: boolean;
}

const parsedAt = (r: InstanceReading, log: number, j: number): unknown =>
  JSON.parse(r.bytes.toString("utf8", r.layout.elements[log].inner[2 * j], r.layout.elements[log].inner[2 * j + 1]));

/** How to read `layout` instance by instance; null when the document must be regrouped instead. */
export function instanceReading(bytes: Buffer, layout: DocumentLayout): InstanceReading | null {
  const L = layout.elements.length;
  const count = L ? layout.elements[0].inner.length / 2 : 0;
  if (count === 0) return null;
  const steps: number[] = [];
  const byTurn = new Array<number>(L).fill(-1);
  let filled = false;
  for (const [s, element] of layout.elements.entries()) {
    let log: unknown;
    try {
      log = JSON.parse(element.text);
    } catch {
      return null;
    }
    if (!isObj(log) || !isInt(log.step) || log.step < 0 || log.step >= L || byTurn[log.step] !== -1) return null;
    if (element.inner.length / 2 !== count) return null;
    byTurn[log.step] = s;
    steps.push(log.step);
    if (log.filled_history === true) filled = true;
  }
  const r: InstanceReading = { bytes, layout, steps, byTurn, first: [], K: 0, filled };
  for (let j = 0; j < count; j++) {
    let inst: unknown;
    try {
      inst = parsedAt(r, byTurn[0], j);
    } catch {
      return null;
    }
    const c = checkedTurn(inst, byTurn[0], j);
    if ("message" in c || (j > 0 && c.id <= r.first[j - 1].id)) return null;
    r.first.push(c);
    r.K = Math.max(r.K, c.turn.keys.length);
  }
  return r.K >= 1 ? r : null;
}

export function* instanceByInstanceEvents(ctx: ImportContext, r: InstanceReading): Generator<ReaderEvent> {
  let header: RunHeader | null = null;
  const L = r.byTurn.length;
  for (let j = 0; j < r.first.length; j++) {
    const { id } = r.first[j];
    const turns: Turn[] = [r.first[j].turn];
    for (let t = 1; t < L; t++) {
      let c: ReturnType<typeof checkedTurn> | null = null;
      try {
        c = checkedTurn(parsedAt(r, r.byTurn[t], j), r.byTurn[t], j);
      } catch {
        // not JSON: said by the regrouping way
      }
      if (!c || "message" in c || c.id !== id) return yield* regroupedFrom(ctx, r, j, header);
      turns.push(c.turn);
    }
    if (!header) {
      // as the regrouping way: T the most turns of an instance (every log's, here), the horizon the first instance's keys
      header = stepLogsHeader(ctx, { K: r.K, T: L, horizon: turns.reduce((n, t) => n + t.keys.length, 0), filled: r.filled });
      if (!header) return;
      const run = ctx.run(header);
      if (!run) return;
      yield run;
    }
    const ev = instanceEvent(ctx, header, id, turns);
    if (ev) yield ev;
  }
}

/**
 * The instances from place `from` of every log on, regrouped (lib/import/eval-steps.ts); those
 * before it were imported, so any of their ids found again is an instance twice at a step.
 * From place 0 this is the regrouping way whole.
 */
function* regroupedFrom(ctx: ImportContext, r: InstanceReading, from: number, header: RunHeader | null): Generator<ReaderEvent> {
  const logs = new StepLogTurns();
  logs.filled = r.filled;
  const imported = new Set(r.first.slice(0, from).map((f) => f.id));
  for (const [s, element] of r.layout.elements.entries()) {
    for (let j = from; j < element.inner.length / 2; j++) {
      let inst: unknown;
      try {
        inst = parsedAt(r, s, j);
      } catch (e) {
        logs.errors.push({ at: instanceAt(s, j), message: `invalid JSON (${(e as Error).message})` });
        continue;
      }
      logs.addTurn(checkedTurn(inst, s, j), r.steps[s], imported);
    }
  }
  if (!header) return yield* evalStepEvents(ctx, logs);
  // as the regrouping way: errors of the logs' contents end the import before any instance
  for (const e of logs.errors) ctx.error(0, e.at, e.message);
  if (!ctx.failed) yield* instanceEvents(ctx, header, logs.byInstance);
}
