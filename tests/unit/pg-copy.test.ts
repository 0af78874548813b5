import fc from "fast-check";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { copyCsvOfValues, copyValues } from "../../lib/store/pg-copy";

// COPY's CSV format, written plainly as one string (PostgreSQL's documentation, "COPY", "CSV
// Format"): fields separated by commas, rows ended by newlines, NULL an unquoted empty field,
// every string quoted with its quotes doubled (so an empty string is ""), bytea in hex.
function copyCsv(rows: unknown[][]): string {
  const field = (v: unknown): string => {
    if (v === null || v === undefined) return "";
    if (typeof v === "boolean") return v ? "t" : "f";
    if (typeof v === "number") return String(v);
    if (v instanceof Uint8Array) return "\\x" + Buffer.from(v).toString("hex");
    return '"' + String(v).split('"').join('""') + '"';
  };
  return rows.map((r) => r.map(field).join(",") + "\n").join("");
}

const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: fc.constantFrom("\\", "\t", "\n", "\r", '"', ",", ".", "a", "é", "😀"), maxLength: 30 }),
  fc.constantFrom("\\.", "", '"', '""', "\\N", "NULL"),
);
const value = fc.oneof(
  text,
  fc.string({ unit: "grapheme", minLength: 5000, maxLength: 70000 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.uint8Array({ maxLength: 40 }),
);

const chunked = (rows: unknown[][], per: number) =>
  per === 0 ? rows : Array.from({ length: Math.ceil(rows.length / per) }, (_, k) => rows.slice(k * per, (k + 1) * per).flat());

describe("COPY CSV written into buffers", () => {
  it("is exactly the CSV of the rows, for any values and any split into chunks", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(value, { maxLength: 60 }), fc.nat(6), (width, values, per) => {
        const rows: unknown[][] = [];
        for (let i = 0; i + width <= values.length; i += width) rows.push(values.slice(i, i + width));
        const out = [...copyCsvOfValues(chunked(rows, per), width)];
        expect(Buffer.concat(out).equals(Buffer.from(copyCsv(rows)))).toBe(true);
        // no empty buffers
        for (const b of out) expect(b.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});

// The server reads back what was written: text (quotes, newlines, backslashes, `\.`, "\N"),
// bytea, integers, doubles, booleans and NULLs, the empty string apart from NULL.
const PG = process.env.STEPWISE_TEST_PG;
describe.skipIf(!PG)("COPY CSV on PostgreSQL", () => {
  it("stores every value as given", async () => {
    const client = new pg.Client({ connectionString: PG });
    await client.connect();
    try {
      await client.query(`CREATE TEMP TABLE copy_check (k int, t text, b bytea, i bigint, d float8, f boolean)`);
      const noNul = fc
        .oneof(
          fc.string({ unit: fc.constantFrom("\\", "\t", "\n", "\r", '"', ",", ".", "a", "é", "😀"), maxLength: 50 }),
          fc.string({ unit: "grapheme", maxLength: 50 }),
        )
        .map((s) => s.replaceAll("\0", ""));
      const row = fc.tuple(
        fc.option(fc.oneof(noNul, fc.constantFrom("\\.", "", '"', "\\N", "NULL")), { nil: null }),
        fc.option(fc.uint8Array({ maxLength: 30 }), { nil: null }),
        fc.option(fc.integer(), { nil: null }),
        fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }),
        fc.option(fc.boolean(), { nil: null }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(row, { maxLength: 30 }), fc.nat(4), async (rows, per) => {
          await client.query(`TRUNCATE copy_check`);
          const keyed = rows.map((r, k) => [k, ...r]);
          await copyValues(client, "copy_check", ["k", "t", "b", "i", "d", "f"], chunked(keyed, per));
          const got = await client.query(`SELECT k, t, b, i, d, f FROM copy_check ORDER BY k`);
          expect(
            got.rows.map((r) => [r.k, r.t, r.b === null ? null : new Uint8Array(r.b), r.i === null ? null : Number(r.i), r.d, r.f]),
          ).toEqual(keyed.map(([k, t, b, i, d, f]) => [k, t, b, i, d === 0 ? 0 : d /* -0 is written as String(-0), 0 */, f]));
        }),
        { numRuns: 60 },
      );
    } finally {
      await client.end();
    }
  });
});
