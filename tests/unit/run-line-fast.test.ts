import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ITEM_KEYS, MODEL_KEYS, RUN_KEYS, VARIANT_KEYS } from "../../lib/native/common-lines";
import { itemLineSchema, parseRunLine, runLineSchema } from "../../lib/native/schema";
import { INF, mostly, objectText, ordered, text } from "../helpers/line-arbitraries";

// Run lines of the common shape are read by hand (lib/native/common-lines.ts), so that the
// analysis thread starts without zod; the others by the schema. For any line, the header (every
// key in its order, copies where the schema copies) and errors are those of the schema alone.

const anyJson = fc.jsonValue({ maxDepth: 2 });
const key = fc.oneof(fc.constantFrom("__proto__", "constructor", "0", "7", "name", "type", "zeta"), fc.string({ maxLength: 5 }));
const pairs = fc.array(fc.tuple(key, anyJson.map(text)), { maxLength: 3 });
/** An optional field's [key, JSON text], or null for absent. */
const field = (name: string, values: fc.Arbitrary<string>) =>
  fc.option(
    values.map((v) => [name, v] as [string, string]),
    { nil: null, freq: 3 },
  );
/** A required field: absent once in a while. */
const required = (name: string, values: fc.Arbitrary<string>) =>
  fc.option(
    values.map((v) => [name, v] as [string, string]),
    { nil: null, freq: 25 },
  );
const object = (fields: fc.Arbitrary<[string, string] | null>[]) =>
  fc.tuple(fc.tuple(...fields), pairs, fc.boolean()).map(([named, extra, reverse]) => {
    const all = [...(named.filter((p) => p !== null) as [string, string][]), ...extra];
    return objectText(reverse ? all.reverse() : all);
  });

const name = mostly(fc.string({ minLength: 1, maxLength: 4 }), fc.oneof(fc.constant(""), fc.integer(), fc.constant(null))).map(text);
const count = mostly(fc.integer({ min: 1, max: 9 }), fc.oneof(fc.constant(0), fc.constant(2 ** 53), fc.double(), fc.constant(null))).map(
  text,
);
const model = mostly(
  fc.oneof(
    name,
    object([
      required("name", name),
      field("family", mostly(fc.oneof(fc.string({ maxLength: 3 }), fc.constant(null)), fc.integer()).map(text)),
      field(
        "params_b",
        mostly(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null)), fc.constantFrom('"7"', INF)).map(text),
      ),
      field("thinking", mostly(fc.oneof(fc.boolean(), fc.constant(null)), fc.constant(1)).map(text)),
    ]),
  ),
  fc.constantFrom("null", "[]", "3"),
);
const variant = mostly(
  fc.oneof(
    name,
    object([
      required("name", name),
      field("K", count),
      field("lookback", count),
      field(
        "dictionary",
        mostly(fc.dictionary(fc.string({ maxLength: 2 }), fc.integer()).map(text), fc.constantFrom('{"a":"b"}', "[]", `{"a":${INF}}`)),
      ),
    ]),
  ),
  fc.constantFrom("null", "[]"),
);
const tolerance = mostly(
  fc.oneof(
    fc.record({ abs: fc.double({ min: 0, max: 1, noNaN: true }), rel: fc.double({ min: 0, max: 1, noNaN: true }) }, { requiredKeys: [] }),
    fc.record({ tol_abs: fc.nat(), tol_rel: fc.constant(null) }, { requiredKeys: [] }),
    fc.constant(null),
  ),
  fc.oneof(fc.constant("x"), fc.constant([1]), fc.record({ abs: fc.integer({ min: -5, max: -1 }) })),
);
const config = mostly(
  fc.oneof(object([field("tolerance", tolerance.map(text)), field("prompt", fc.string({ maxLength: 3 }).map(text))]), fc.constant("null")),
  fc.constantFrom("[]", '"x"'),
);
const line = object([
  fc.constant(["type", text("run")] as [string, string]),
  required("key", name),
  fc.constant(null),
  required("model", model),
  required("benchmark", mostly(fc.constantFrom("procedural-arith", "dict-sum", "generic"), fc.constantFrom("arith", 3)).map(text)),
  required("variant", variant),
  field("config", config),
  field("source", mostly(fc.oneof(pairs.map(objectText), fc.constant("null")), fc.constantFrom("[]", "1"))),
  field("created_at", mostly(fc.oneof(fc.string({ maxLength: 4 }), fc.constant(null)), fc.integer()).map(text)),
]);

describe("run lines read by hand", () => {
  it("give the schema's header and errors for any line", () => {
    let headers = 0;
    fc.assert(
      fc.property(line, (t) => {
        const obj = JSON.parse(t) as Record<string, unknown>;
        const want = parseRunLine(JSON.parse(t), { bySchema: true });
        const got = parseRunLine(obj);
        expect(ordered(got), t).toEqual(ordered(want));
        if (got.header) {
          headers++;
          // the schema's copies: the header does not share the parsed line's objects
          if (typeof obj.model === "object") expect(got.header.model).not.toBe(obj.model);
          if (typeof obj.config === "object" && obj.config !== null) expect(got.header.config).not.toBe(obj.config);
        }
      }),
      { numRuns: 3000 },
    );
    expect(headers).toBeGreaterThan(300);
  });

  it("name the schemas' keys in their order", () => {
    const shape = (s: unknown) => Object.keys((s as { shape: object }).shape);
    const piped = (s: unknown) => shape((s as { out: unknown }).out);
    expect(ITEM_KEYS).toEqual(shape(itemLineSchema));
    expect(RUN_KEYS).toEqual(shape(runLineSchema));
    expect(MODEL_KEYS).toEqual(piped(runLineSchema.shape.model));
    expect(VARIANT_KEYS).toEqual(piped(runLineSchema.shape.variant));
  });
});
