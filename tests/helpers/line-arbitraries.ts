import fc from "fast-check";

// Shared by the property tests that hold the hand-read native lines to the schemas
// (tests/unit/item-line-fast.test.ts, run-line-fast.test.ts).

/** A value with its objects' keys in order and undefined kept: toEqual ignores key order. */
export const ordered = (v: unknown): unknown =>
  Array.isArray(v)
    ? ["array", v.map(ordered)]
    : typeof v === "object" && v !== null
      ? ["object", Object.keys(v).map((k) => [k, ordered((v as Record<string, unknown>)[k])])]
      : v === undefined
        ? "<undefined>"
        : v;

/** Mostly valid values, sometimes not: most lines are valid (read by hand), the rest exercise the schema's errors. */
export const mostly = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) =>
  fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: invalid, weight: 1 }) as fc.Arbitrary<T | U>;

// Values as JSON text, so that 1e999 (Infinity) and keys like __proto__ arrive as JSON.parse gives them.
export const INF = "1e999";
export const text = (v: unknown): string => (v === INF ? INF : JSON.stringify(v));
export const objectText = (pairs: [string, string][]) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`;
