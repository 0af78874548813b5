import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { decodeItemContent, encodeItemContent } from "../../lib/store/item-content";

describe("item content records (lib/store/item-content.ts)", () => {
  const input = { x: 9.741, y: 4.141, steps: [{ op: "+", a: 2, b: 1 }], note: "ünïcode ✓" };
  const reference = [9.741, 4.141, 13.882];

  it("decode gives back what was encoded, and writing it again gives the writer's text", () => {
    const c = encodeItemContent(JSON.stringify(input), JSON.stringify(reference));
    const d = decodeItemContent(c.body);
    expect(d).toEqual({ input, reference });
    expect(JSON.stringify(d.input)).toBe(JSON.stringify(input));
    expect(c.hash).toHaveLength(16);
    const without = encodeItemContent(JSON.stringify(input), null);
    expect(decodeItemContent(without.body)).toEqual({ input, reference: null });
    expect(without.hash.equals(c.hash)).toBe(false);
  });

  it("keys equal contents alike and different contents apart", () => {
    const a = encodeItemContent(JSON.stringify(input), JSON.stringify(reference));
    const b = encodeItemContent(JSON.stringify({ ...input }), JSON.stringify([...reference]));
    expect(b.hash.equals(a.hash)).toBe(true);
    expect(b.body.equals(a.body)).toBe(true);
    expect(encodeItemContent(JSON.stringify(input), JSON.stringify([9.741, 4.141, 13.883])).hash.equals(a.hash)).toBe(false);
    // the boundary between input and reference is part of the key
    expect(encodeItemContent('{"a":[1]}', "[2]").hash.equals(encodeItemContent('{"a":[1', "]][2]").hash)).toBe(false);
  });

  it("compresses a long item several times", () => {
    const steps = Array.from({ length: 50 }, (_, i) => ({ op: "+-*/"[i % 4], a: i + 1, b: i + 2 }));
    const ref = Array.from({ length: 52 }, (_, i) => Math.sqrt(i + 2) * 1000);
    const text = JSON.stringify({ x: 1.5, y: 2.5, steps }) + JSON.stringify(ref);
    expect(encodeItemContent(JSON.stringify({ x: 1.5, y: 2.5, steps }), JSON.stringify(ref)).body.length).toBeLessThan(text.length / 2);
  });

  it("refuses a damaged or unknown record", () => {
    const c = encodeItemContent(JSON.stringify(input), JSON.stringify(reference));
    expect(() => decodeItemContent(c.body.subarray(0, c.body.length - 4))).toThrow();
    expect(() => decodeItemContent(deflateRawSync("[2,{},[]]"))).toThrow(/unknown record layout/);
    expect(() => decodeItemContent(deflateRawSync("[1,[],[]]"))).toThrow(/damaged/);
    expect(() => decodeItemContent(deflateRawSync('[1,{},"x"]'))).toThrow(/damaged/);
    expect(() => decodeItemContent(deflateRawSync("[1]"))).toThrow(/unknown record layout/);
  });
});
