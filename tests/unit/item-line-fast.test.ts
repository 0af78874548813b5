import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseItemLine } from "../../lib/native/schema";
import { INF, mostly, objectText, ordered, text } from "../helpers/line-arbitraries";

// Item lines of the common shape are read by hand, the others by the schema: for any line,
// the result (item, every key in its order, copies where the schema copies) and errors are
// those of the schema alone.

const arrayText = (vs: unknown[]) => `[${vs.map(text).join(",")}]`;

const anyJson = fc.jsonValue({ maxDepth: 2 });
const key = fc.oneof(fc.constantFrom("__proto__", "constructor", "0", "10", "zeta", "type", "id", "usage"), fc.string({ maxLength: 5 }));
const pairs = fc.array(
  fc.tuple(
    key,
    anyJson.map((v) => JSON.stringify(v)),
  ),
  { maxLength: 4 },
);

const count = mostly(
  fc.integer({ min: 1, max: 5 }),
  fc.oneof(fc.integer({ min: -2, max: 0 }), fc.constant(2 ** 53), fc.double(), fc.constant(null), fc.string(), fc.constant(INF)),
);
const stepValue = mostly(
  fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 4 })),
  fc.oneof(fc.constant(null), fc.constant(INF), anyJson),
);
const amount = mostly(
  fc.oneof(fc.nat(), fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }), fc.constant(null)),
  fc.oneof(fc.integer({ min: -5, max: -1 }), fc.string(), fc.constant(INF)),
);

/** A field's [key, JSON text], or null for absent. */
const field = (name: string, values: fc.Arbitrary<string>) =>
  fc.option(
    values.map((v) => [name, v] as [string, string]),
    { nil: null, freq: 3 },
  );

const line = fc
  .tuple(
    fc.array(
      fc.oneof(
        field("type", mostly(fc.constant("item"), fc.constantFrom("run", 3)).map(text)),
        field(
          "id",
          mostly(fc.string({ minLength: 1, maxLength: 4 }), fc.oneof(fc.constant(""), fc.integer(), fc.double(), fc.constant(null))).map(
            text,
          ),
        ),
      ),
      { minLength: 2, maxLength: 2 },
    ),
    field("length", count.map(text)),
    field("epoch", count.map(text)),
    field("input", mostly(pairs.map(objectText), fc.constantFrom("null", "[1]", '"x"'))),
    field(
      "output",
      mostly(fc.oneof(fc.string(), fc.array(anyJson, { maxLength: 3 }), fc.constant(null)), fc.oneof(fc.integer(), fc.object())).map(text),
    ),
    field("reference", mostly(fc.array(stepValue, { maxLength: 3 }).map(arrayText), stepValue.map(text))),
    field("steps", mostly(fc.array(fc.oneof(stepValue, fc.constant(null)), { maxLength: 3 }).map(arrayText), stepValue.map(text))),
    field("answer", stepValue.map(text)),
    field(
      "usage",
      mostly(
        fc.oneof(
          fc
            .tuple(amount, amount, pairs)
            .map(([p, c, rest]) => objectText([...rest, ["completion_tokens", text(c)], ["prompt_tokens", text(p)]])),
          fc.constant("null"),
        ),
        fc.constantFrom('"x"', "[]"),
      ),
    ),
    field("latency_ms", amount.map(text)),
    field("cost_usd", amount.map(text)),
    field("metadata", anyJson.map(text)),
    pairs,
    fc.boolean(),
  )
  .map(([head, ...rest]) => {
    const shuffle = rest.pop() as boolean;
    const extra = rest.pop() as [string, string][];
    const all = [["type", '"item"'] as [string, string], ...([...head, ...rest].filter((p) => p !== null) as [string, string][]), ...extra];
    return objectText(shuffle ? all.reverse() : all);
  });

describe("item lines read by hand", () => {
  it("give the schema's item and errors for any line", () => {
    let items = 0;
    fc.assert(
      fc.property(line, (t) => {
        const obj = JSON.parse(t) as Record<string, unknown>;
        const want = parseItemLine(JSON.parse(t), { bySchema: true });
        const got = parseItemLine(obj);
        expect(ordered(got), t).toEqual(ordered(want));
        if (got.item) {
          items++;
          // the schema's copies: what was read does not share the parsed line's objects
          if (typeof obj.input === "object" && obj.input !== null) expect(got.item.input).not.toBe(obj.input);
          if (Array.isArray(obj.reference)) expect(got.item.reference).not.toBe(obj.reference);
        }
      }),
      { numRuns: 3000 },
    );
    expect(items).toBeGreaterThan(300);
  });

  it("reads a line of the bench's files as the schema does", () => {
    const common = `{"type":"item","id":"arith-1","length":5,"input":{"x":5.849,"steps":[{"op":"+","a":1,"b":2}]},"output":"S1 = 5.849","usage":{"prompt_tokens":252,"completion_tokens":59},"latency_ms":925,"cost_usd":0.0000858}`;
    expect(ordered(parseItemLine(JSON.parse(common)))).toEqual(ordered(parseItemLine(JSON.parse(common), { bySchema: true })));
  });
});
