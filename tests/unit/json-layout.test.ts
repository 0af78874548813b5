import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { documentLayout } from "../../lib/import/json-layout";

const layoutOf = (text: string) => documentLayout(Buffer.from(text, "utf8"), "step_logs", "instances");
const parts = (text: string, spans: number[]) => {
  const bytes = Buffer.from(text, "utf8");
  const out: unknown[] = [];
  for (let k = 0; k < spans.length; k += 2) out.push(JSON.parse(bytes.toString("utf8", spans[k], spans[k + 1])));
  return out;
};

// Strings full of what a scan must not take for structure: quotes, backslashes, brackets, commas.
const tricky = fc.string({ unit: fc.constantFrom('"', "\\", "{", "}", "[", "]", ",", ":", "a", "é", "😀", " ", "\n") });
// and long ones, whose end is found past the scan's first 64 bytes
const long = fc.string({ unit: fc.constantFrom('"', "\\", "}", "a"), minLength: 60, maxLength: 200 });
const value = fc.oneof(fc.jsonValue({ maxDepth: 3 }), tricky, long);
const members = fc.dictionary(
  tricky.filter((k) => k !== "instances" && k !== "step_logs" && k !== "__proto__"),
  value,
  { maxKeys: 4 },
);
const log = fc.record({ before: members, instances: fc.array(value, { maxLength: 6 }), after: members });
const doc = fc.record({ before: members, logs: fc.array(log, { maxLength: 5 }), after: members });

describe("documentLayout", () => {
  it("gives the skeleton, each log without its instances and each instance, as JSON.parse reads them, however laid out", () => {
    fc.assert(
      fc.property(doc, fc.constantFrom(0, 1, 2, "\t"), (d, indent) => {
        const built = { ...d.before, step_logs: d.logs.map((l) => ({ ...l.before, instances: l.instances, ...l.after })), ...d.after };
        const text = JSON.stringify(built, null, indent);
        const whole = JSON.parse(text) as { step_logs: { instances: unknown[] }[] };
        const layout = layoutOf(text);
        expect(layout).not.toBeNull();
        expect(JSON.parse(layout!.skeleton)).toEqual({ ...whole, step_logs: whole.step_logs.map(() => 0) });
        expect(layout!.elements.map((e) => JSON.parse(e.text))).toEqual(whole.step_logs.map((l) => ({ ...l, instances: [] })));
        expect(layout!.elements.map((e) => parts(text, e.inner))).toEqual(whole.step_logs.map((l) => l.instances));
      }),
      { numRuns: 300 },
    );
  });

  it("is null for any other shape or a text whose brackets or strings do not close", () => {
    for (const text of [
      "[]",
      '{"other": 1}',
      '{"step_logs": {}}',
      '{"step_logs": [1]}',
      '{"step_logs": [{"step": 0}]}',
      '{"step_logs": [{"instances": {}}]}',
      '{"step_logs": [{"instances": [], "instances": []}]}',
      '{"step_logs": [], "step_logs": []}',
      '{"step_logs": [{"instances": [{"a": "b}]}]}',
      '{"step_logs": [{"instances": [{"a": [1}]}]}',
      '{"step_logs": [{"instances": [1 2]}]}',
      '{"step_logs": [{"instances": []}]} x',
      '{"step_logs": [{"instances": []}]',
      '{"step_logs": [{"instances": []}], "\\x": 1}',
    ])
      expect(layoutOf(text), text).toBeNull();
  });

  it("reads member names as JSON.parse does: an escaped spelling is the same member", () => {
    expect(layoutOf('{"step\\u005flogs": [{"instances": [1]}]}')!.elements[0].inner).toHaveLength(2);
    expect(layoutOf('{"step_logs": [{"instances": [1], "instance\\u0073": []}]}')).toBeNull();
  });

  it("reads each member's name within its own bytes: time grows with the document, not members × document", () => {
    // 40,000 logs of four members and a 20 MB document without a backslash: a search for an
    // escape past the name's end read on to the document's end for each name (22 s here; 0.33 s reading each name alone).
    const log = `{"step": 0, "timestamp": "t", "filled_history": false, "instances": [{"raw_llm_output": "${"x".repeat(400)}"}]}`;
    const text = `{"step_logs": [${Array.from({ length: 40_000 }, () => log).join(", ")}]}`;
    const started = performance.now();
    expect(layoutOf(text)!.elements).toHaveLength(40_000);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
