import { describe, expect, it } from "vitest";
import type { ReaderEvent } from "../../lib/native/reader";
import { ImportContext } from "../../lib/import/context";
import { evalStepEvents, StepLogTurns } from "../../lib/import/eval-steps";
import { instanceByInstanceEvents, instanceReading } from "../../lib/import/eval-steps-layout";
import { documentLayout } from "../../lib/import/json-layout";
import { parseImportOptions } from "../../lib/import/options";
import { newProgress } from "../../lib/store/load-progress";

// measuring-execution's eval_step_results.json read instance by instance must give what the
// regrouping way gives (lib/import/eval-steps.ts): the same events, the same errors.

type Instance = Record<string, unknown>;
type Doc = { step_logs: { step: number; filled_history: boolean; instances: Instance[] }[] };

/** N instances × L turns of two keys each, answered right. */
function document(N: number, L: number): Doc {
  const sums = new Array<number>(N).fill(0);
  return {
    step_logs: Array.from({ length: L }, (_, step) => ({
      step,
      filled_history: false,
      instances: Array.from({ length: N }, (_, id) => {
        const values = [((id * 7 + step * 3) % 19) - 9, ((id + step * 5) % 13) - 6];
        sums[id] += values[0] + values[1];
        return {
          instance_id: id,
          input_given: [`k${id}-${step}a`, `k${id}-${step}b`],
          input_values: values,
          raw_llm_output: `<think>adding ${values.join(" and ")}</think> The total is now <answer>${sums[id]}</answer>`,
          parsed_answer: sums[id],
          expected_answer: sums[id],
        };
      }),
    })),
  };
}

const context = () => {
  const parsed = parseImportOptions({ model: "m" });
  if (!parsed.ok) throw new Error(parsed.error);
  return new ImportContext("eval_step_results.json", "eval_step_results.json", 0, parsed.options, newProgress(0));
};

function regrouped(text: string) {
  const ctx = context();
  const logs = new StepLogTurns();
  (JSON.parse(text) as { step_logs: unknown[] }).step_logs.forEach((log, s) => logs.add(log, s));
  return { events: [...evalStepEvents(ctx, logs)], errors: sorted(ctx) };
}

function byInstance(text: string) {
  const bytes = Buffer.from(text);
  const reading = instanceReading(bytes, documentLayout(bytes, "step_logs", "instances")!);
  if (!reading) return null;
  const ctx = context();
  return { events: [...instanceByInstanceEvents(ctx, reading)], errors: sorted(ctx) };
}

const sorted = (ctx: ImportContext) => ctx.errors.map((e) => `${e.field}: ${e.message}`).sort();
const ids = (events: ReaderEvent[]) => events.flatMap((e) => (e.kind === "generation" ? [e.item.id] : []));

describe("eval_step_results.json instance by instance", () => {
  it("gives the regrouping way's events for a regular document", () => {
    const text = JSON.stringify(document(12, 5), null, 2);
    const a = regrouped(text);
    const b = byInstance(text);
    expect(b).not.toBeNull();
    expect(a.errors).toEqual([]);
    expect(ids(a.events)).toHaveLength(12);
    expect(b).toEqual(a);
  });

  it("hands what is left to the regrouping way at the first instance out of place: the same events, or the same errors", () => {
    const cases: [string, (d: Doc) => void][] = [
      [
        "two instances swapped in one log",
        (d) => ([d.step_logs[3].instances[4], d.step_logs[3].instances[5]] = [d.step_logs[3].instances[5], d.step_logs[3].instances[4]]),
      ],
      ["an instance twice in a log", (d) => (d.step_logs[2].instances[6].instance_id = 1)],
      ["an instance with a turn of no keys' list", (d) => (d.step_logs[4].instances[7].input_given = "k")],
      ["an instance no first log holds", (d) => (d.step_logs[1].instances[9].instance_id = 40)],
      ["a wrong expected answer", (d) => (d.step_logs[2].instances[3].expected_answer = 1e6)],
      ["the first instance out of place", (d) => (d.step_logs[1].instances[0].instance_id = 5)],
    ];
    for (const [name, change] of cases) {
      const d = document(12, 5);
      change(d);
      const text = JSON.stringify(d);
      const a = regrouped(text);
      const b = byInstance(text)!;
      expect(b, name).not.toBeNull();
      // an import with errors stores nothing: what matters then is that they are the same
      if (a.errors.length) expect(b.errors, name).toEqual(a.errors);
      else expect(b, name).toEqual(a);
    }
  });

  it("leaves to the regrouping way a document it cannot read so from the start", () => {
    const cases: [string, (d: Doc) => void][] = [
      ["ids not increasing in the first log", (d) => d.step_logs.forEach((l) => l.instances.reverse())],
      ["a step twice", (d) => (d.step_logs[2].step = 1)],
      ["a step missing", (d) => (d.step_logs[4].step = 7)],
      ["logs of different lengths", (d) => d.step_logs[3].instances.pop()],
      ["an invalid first turn", (d) => (d.step_logs[0].instances[2].input_values = null as never)],
      ["no instances", (d) => d.step_logs.forEach((l) => (l.instances = []))],
    ];
    for (const [name, change] of cases) {
      const d = document(12, 5);
      change(d);
      expect(byInstance(JSON.stringify(d)), name).toBeNull();
    }
  });

  it("says where an instance is not JSON, and imports nothing after it", () => {
    const d = document(12, 5);
    d.step_logs[2].instances[5].parsed_answer = "BAD";
    const b = byInstance(JSON.stringify(d).replace('"BAD"', "nul"))!;
    expect(b.errors).toHaveLength(1);
    expect(b.errors[0]).toMatch(/^step_logs\[2\]\.instances\[5\]: invalid JSON \(/);
    expect(ids(b.events)).toEqual(["instance-0", "instance-1", "instance-2", "instance-3", "instance-4"]);
  });
});
