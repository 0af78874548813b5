import fc from "fast-check";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { copyBinaryOfValues, copyCsvOfValues, copyValues, type BinaryType } from "../../lib/store/pg-copy";

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

// COPY's binary format, written plainly (PostgreSQL's documentation, "COPY", "Binary Format"):
// the signature, two zero words, per row a 16-bit field count and per field a 32-bit length
// (-1 for NULL) and the value as its type's send function writes it, then a -1 trailer.
function copyBinary(rows: unknown[][], types: BinaryType[]): Buffer {
  const parts: Buffer[] = [Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)];
  const int = (n: number, bytes: 2 | 4) => {
    const b = Buffer.alloc(bytes);
    if (bytes === 2) b.writeInt16BE(n);
    else b.writeInt32BE(n);
    return b;
  };
  const field = (v: unknown, t: BinaryType): Buffer => {
    if (v === null || v === undefined) return int(-1, 4);
    let b: Buffer;
    if (t === "text") b = Buffer.from(String(v), "utf8");
    else if (t === "bytea") b = Buffer.from(v as Uint8Array);
    else if (t === "bool") b = Buffer.from([v === true || v === 1 ? 1 : 0]);
    else if (t === "int4") b = int(v as number, 4);
    else {
      b = Buffer.alloc(8);
      if (t === "float8") b.writeDoubleBE(v as number);
      else b.writeBigInt64BE(BigInt(v as number));
    }
    return Buffer.concat([int(b.length, 4), b]);
  };
  for (const r of rows) parts.push(int(r.length, 2), ...r.map((v, c) => field(v, types[c])));
  parts.push(int(-1, 2));
  return Buffer.concat(parts);
}

const typed: Record<BinaryType, fc.Arbitrary<unknown>> = {
  text: fc.oneof(text, fc.string({ unit: "grapheme", minLength: 5000, maxLength: 70000 }), fc.integer()),
  bytea: fc.uint8Array({ maxLength: 40 }),
  int4: fc.integer(),
  int8: fc.maxSafeInteger(),
  float8: fc.double(),
  bool: fc.oneof(fc.boolean(), fc.constantFrom(0, 1)),
};
const typeOf = fc.constantFrom<BinaryType>("text", "bytea", "int4", "int8", "float8", "bool");

describe("COPY binary written into buffers", () => {
  it("is exactly the binary format of the rows, for any types, values and split into chunks", () => {
    fc.assert(
      fc.property(
        fc
          .array(typeOf, { minLength: 1, maxLength: 5 })
          .chain((types) =>
            fc.tuple(fc.constant(types), fc.array(fc.tuple(...types.map((t) => fc.option(typed[t], { freq: 4 })))), fc.nat(6)),
          ),
        ([types, rows, per]) => {
          const out = [...copyBinaryOfValues(chunked(rows, per), types, types)];
          expect(Buffer.concat(out).equals(copyBinary(rows, types))).toBe(true);
          for (const b of out) expect(b.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("refuses a value its column's type cannot hold, naming the column", () => {
    const write = (types: BinaryType[], v: unknown) => () => [...copyBinaryOfValues([[v]], types, ["count"])];
    expect(write(["int4"], 2 ** 31)).toThrow(/column "count" \(int4\)/);
    expect(write(["int4"], 12.5)).toThrow(/column "count"/);
    expect(write(["int4"], "7")).toThrow(/column "count"/);
    expect(write(["bool"], "t")).toThrow(/column "count" \(bool\)/);
    expect(write(["bytea"], "abc")).toThrow(/column "count" \(bytea\)/);
    expect(write(["int8"], 2 ** 60)).toThrow(/column "count" \(int8\)/);
  });
});

// The server reads back what was written: text (quotes, newlines, backslashes, `\.`, "\N"),
// bytea, integers, doubles, booleans and NULLs, the empty string apart from NULL — in binary
// (every column of a written type) and in CSV (a column of another type among them).
const PG = process.env.STEPWISE_TEST_PG;
describe.skipIf(!PG)("COPY on PostgreSQL", () => {
  it.each([
    ["binary", ""],
    ["CSV", ", n numeric"],
  ])("stores every value as given (%s)", async (format, extra) => {
    const client = new pg.Client({ connectionString: PG });
    await client.connect();
    try {
      await client.query(`CREATE TEMP TABLE copy_check (k int, t text, b bytea, i bigint, d float8, f boolean${extra})`);
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
      const columns = ["k", "t", "b", "i", "d", "f", ...(extra ? ["n"] : [])];
      await fc.assert(
        fc.asyncProperty(fc.array(row, { maxLength: 30 }), fc.nat(4), async (rows, per) => {
          await client.query(`TRUNCATE copy_check`);
          const keyed = rows.map((r, k) => [k, ...r, ...(extra ? [null] : [])]);
          await copyValues(client, "copy_check", columns, chunked(keyed, per));
          const got = await client.query(`SELECT k, t, b, i, d, f FROM copy_check ORDER BY k`);
          expect(
            got.rows.map((r) => [r.k, r.t, r.b === null ? null : new Uint8Array(r.b), r.i === null ? null : Number(r.i), r.d, r.f]),
          ).toEqual(
            // CSV writes -0 as String(-0), 0; binary keeps its sign
            keyed.map(([k, t, b, i, d, f]) => [k, t, b, i, format === "CSV" && d === 0 ? 0 : d, f]),
          );
        }),
        { numRuns: 60 },
      );
    } finally {
      await client.end();
    }
  });
});
