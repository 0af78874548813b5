import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ItemIds } from "../../lib/store/item-ids";

describe("ItemIds", () => {
  it("gives back each item's id, as an array of them does, whatever the ids' gaps", () => {
    fc.assert(
      fc.property(
        // each item's id: the next one, or past a gap (a new block of ids), or an unrelated one
        fc.array(fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 5000 }), fc.integer({ min: -3, max: 0 })), { maxLength: 3000 }),
        (steps) => {
          const ids = new ItemIds();
          const plain: number[] = [];
          let id = 1;
          for (const [k, step] of steps.entries()) {
            id += step;
            ids.add(k, id);
            plain.push(id);
          }
          expect(ids.count).toBe(plain.length);
          for (const [k, expected] of plain.entries()) expect(ids.get(k)).toBe(expected);
          expect(() => ids.get(plain.length)).toThrow(/has no id/);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("keeps a range per block of consecutive ids, ids past 2^31 exact", () => {
    const ids = new ItemIds();
    for (let k = 0; k < 100_000; k++) ids.add(k, 2 ** 40 + Math.floor(k / 1000) * 1500 + (k % 1000));
    expect(ids.ranges).toBe(100);
    expect(ids.get(0)).toBe(2 ** 40);
    expect(ids.get(99_999)).toBe(2 ** 40 + 99 * 1500 + 999);
    expect(ids.get(12_345)).toBe(2 ** 40 + 12 * 1500 + 345);
    expect(() => ids.add(5, 1)).toThrow(/before item 100000/);
  });
});
