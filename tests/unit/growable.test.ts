// Typed arrays that grow in place (lib/analysis/growable.ts): the same array, its values kept,
// the new entries zero, and a clear error past the largest length.
import { describe, expect, it } from "vitest";
import { grow, growable } from "../../lib/analysis/growable";

describe("growable", () => {
  it("grows in place by half again at least, keeping the values and zeroing the new entries", () => {
    const a = growable(Int32Array, 4, 100);
    a.set([1, 2, 3, 4]);
    grow(a, 5, "entries");
    expect(a.length).toBe(6);
    expect([...a]).toEqual([1, 2, 3, 4, 0, 0]);
    grow(a, 40, "entries");
    expect(a.length).toBe(40);
    expect(a[3]).toBe(4);
    expect(a[39]).toBe(0);
    const f = growable(Float64Array, 2, 10);
    f.fill(NaN);
    grow(f, 3, "entries");
    expect([...f]).toEqual([NaN, NaN, 0]);
  });

  it("stops at its largest length, and says what there were too many of", () => {
    const a = growable(Uint8Array, 8, 10);
    grow(a, 9, "items");
    expect(a.length).toBe(10);
    expect(() => grow(a, 11, "items")).toThrow("more than 10 items: too many for one run");
    expect(a.length).toBe(10);
  });
});
