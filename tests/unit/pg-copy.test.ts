import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { copyTextOfValues } from "../../lib/store/pg-copy";

// COPY's text format, written plainly as one string (PostgreSQL's documentation, "COPY", "Text
// Format"): fields separated by tabs, rows ended by newlines, \N for NULL, and backslash, tab,
// newline and carriage return escaped; bytea in hex, its backslash escaped.
function copyText(rows: unknown[][]): string {
  const field = (v: unknown): string => {
    if (v === null || v === undefined) return "\\N";
    if (typeof v === "boolean") return v ? "t" : "f";
    if (v instanceof Uint8Array) return "\\\\x" + Buffer.from(v).toString("hex");
    return String(v)
      .split("")
      .map((ch) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" })[ch] ?? ch)
      .join("");
  };
  return rows.map((r) => r.map(field).join("\t") + "\n").join("");
}

const value = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: fc.constantFrom("\\", "\t", "\n", "\r", "a", "é", "😀"), maxLength: 30 }),
  fc.string({ unit: "grapheme", minLength: 5000, maxLength: 70000 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.uint8Array({ maxLength: 40 }),
);

describe("COPY text written into buffers", () => {
  it("is exactly the COPY text of the rows, for any values and any split into chunks", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(value, { maxLength: 60 }), fc.nat(6), (width, values, per) => {
        const rows: unknown[][] = [];
        for (let i = 0; i + width <= values.length; i += width) rows.push(values.slice(i, i + width));
        // row-major chunks of `per` rows (0: a chunk per row)
        const chunks =
          per === 0 ? rows : Array.from({ length: Math.ceil(rows.length / per) }, (_, k) => rows.slice(k * per, (k + 1) * per).flat());
        const out = [...copyTextOfValues(chunks, width)];
        expect(Buffer.concat(out).equals(Buffer.from(copyText(rows)))).toBe(true);
        // no empty buffers
        for (const b of out) expect(b.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});
