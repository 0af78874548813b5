// Inspect's attachment references (lib/import/inspect-sample.ts): resolved in the parts of a
// sample an import reads, spelled by path when missing there, ignored where nothing is imported.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveAttachments } from "../../lib/import/inspect-sample";

const att = { a1: "the input text", a2: "the completion" };

describe("Inspect attachment references", () => {
  it("resolves references anywhere in the imported parts, in place, and leaves messages and events as they are", () => {
    const s: Record<string, unknown> = {
      input: "attachment://a1",
      target: ["x", "attachment://a2"],
      metadata: { nested: [{ deep: "attachment://a1" }], n: 3 },
      output: { completion: "attachment://a2", choices: [{ message: { content: [{ type: "text", text: "attachment://a2" }] } }] },
      scores: { match: { value: "C", explanation: "attachment://a2", metadata: { steps: [1, 2, 3] } } },
      messages: [{ content: "attachment://a1" }, { content: "attachment://gone" }],
      events: [{ input: "attachment://gone" }],
    };
    expect(resolveAttachments(s, att)).toEqual([]);
    expect(s.input).toBe("the input text");
    expect(s.target).toEqual(["x", "the completion"]);
    expect(s.metadata).toEqual({ nested: [{ deep: "the input text" }], n: 3 });
    expect(s.output).toEqual({
      completion: "the completion",
      choices: [{ message: { content: [{ type: "text", text: "the completion" }] } }],
    });
    expect((s.scores as { match: { explanation: string } }).match.explanation).toBe("the completion");
    expect(s.messages).toEqual([{ content: "attachment://a1" }, { content: "attachment://gone" }]);
    expect(s.events).toEqual([{ input: "attachment://gone" }]);
  });

  it("spells the path of every missing reference of the imported parts and resolves the rest", () => {
    const s: Record<string, unknown> = {
      input: "attachment://nope",
      metadata: { list: ["attachment://a1", { x: "attachment://also-nope" }] },
      output: { completion: "attachment://a2" },
    };
    expect(resolveAttachments(s, att)).toEqual(["input", "metadata.list[1].x"]);
    expect(s.metadata).toEqual({ list: ["the input text", { x: "attachment://also-nope" }] });
    expect(s.output).toEqual({ completion: "the completion" });
  });

  it("keeps a key named __proto__ an own property when it resolves one", () => {
    const s = JSON.parse('{"metadata": {"__proto__": "attachment://a1"}}') as Record<string, unknown>;
    expect(resolveAttachments(s, att)).toEqual([]);
    expect(Object.getOwnPropertyDescriptor(s.metadata, "__proto__")?.value).toBe("the input text");
    expect(Object.getPrototypeOf(s.metadata)).toBe(Object.prototype);
  });

  it("gives what resolving each string of the imported parts by hand gives (property)", () => {
    const leaf = fc.oneof(
      fc.constantFrom("attachment://a1", "attachment://a2", "attachment://zz", "plain"),
      fc.integer(),
      fc.constant(null),
    );
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.array(tie("node"), { maxLength: 4 }),
        fc.dictionary(fc.constantFrom("k", "m", "q"), tie("node"), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(fc.record({ input: tree, output: tree, scores: tree, events: tree }), (sample) => {
        const s = structuredClone(sample) as Record<string, unknown>;
        const byHand = (v: unknown, trail: string, out: string[]): unknown => {
          if (typeof v === "string" && v.startsWith("attachment://")) {
            const hit = (att as Record<string, string>)[v.slice(13)];
            if (hit === undefined) out.push(trail);
            return hit ?? v;
          }
          if (Array.isArray(v)) return v.map((x, i) => byHand(x, `${trail}[${i}]`, out));
          if (typeof v === "object" && v !== null)
            return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, byHand(x, `${trail}.${k}`, out)]));
          return v;
        };
        const missing: string[] = [];
        const want = {
          ...sample,
          input: byHand(sample.input, "input", missing),
          output: byHand(sample.output, "output", missing),
          scores: byHand(sample.scores, "scores", missing),
        };
        expect(resolveAttachments(s, att)).toEqual(missing);
        expect(s).toEqual(want);
      }),
    );
  });
});
