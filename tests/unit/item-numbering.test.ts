import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ItemNumbering } from "../../lib/native/item-numbering";

describe("ItemNumbering", () => {
  it("numbers items by first appearance and refuses a repeated (item, epoch), as a map of epoch sets does", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.oneof(
              fc.constantFrom("a", "b", "c", "", "item-9", "ä", "\ud800", "\udc00", "\ud800\udc00", "\ufffd", "x\ud800"),
              fc.string({ unit: "binary", maxLength: 6 }),
              fc.string({ maxLength: 3 }),
            ),
            fc.integer({ min: 0, max: 3 }),
          ),
          { maxLength: 3000 },
        ),
        fc.boolean(),
        fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
        (gens, collide, inMemory) => {
          // with the length as the hash, ids of one length collide: the table must compare the ids;
          // past `inMemory` items the table moves to a temporary database and must go on as before
          const numbering = new ItemNumbering(collide ? (_bytes, length) => length : undefined, inMemory);
          const epochs = new Map<string, Set<number>>();
          for (const [id, epoch] of gens) {
            const got = numbering.see(id, epoch);
            const seen = epochs.get(id);
            if (seen?.has(epoch)) expect(got).toBeNull();
            else {
              if (!seen) epochs.set(id, new Set([epoch]));
              else seen.add(epoch);
              expect(got).toEqual({ index: [...epochs.keys()].indexOf(id), first: !seen });
            }
          }
          expect(numbering.count).toBe(epochs.size);
          numbering.close();
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each([
    ["in memory", undefined],
    ["moved to disk at 1,000 items", 1000],
  ])("grows past its first blocks of items and id text, %s", (_how, inMemory) => {
    const numbering = new ItemNumbering(undefined, inMemory);
    const id = (i: number) => `item-${i}-${"x".repeat(i % 40)}`;
    // epochs the 32-bit column cannot hold, among the items a table moved to disk had
    expect(numbering.see("early", 2 ** 40)).toEqual({ index: 0, first: true });
    expect(numbering.see("early", -3)).toEqual({ index: 0, first: false });
    for (let i = 1; i < 5000; i++) expect(numbering.see(id(i), i % 7)).toEqual({ index: i, first: true });
    expect(numbering.see("early", 2 ** 40)).toBeNull();
    expect(numbering.see("early", -3)).toBeNull();
    expect(numbering.see("early", 1)).toEqual({ index: 0, first: false });
    for (let i = 1; i < 5000; i++) expect(numbering.see(id(i), i % 7)).toBeNull();
    expect(numbering.see("i4999", 0)).toEqual({ index: 5000, first: true });
    expect(numbering.see(id(4999), 0)).toEqual({ index: 4999, first: false });
    expect(numbering.see(id(4999), 0)).toBeNull();
    // epochs past 32 bits stay exact
    expect(numbering.see("big", 2 ** 40)).toEqual({ index: 5001, first: true });
    expect(numbering.see("big", 2 ** 40)).toBeNull();
    expect(numbering.see("big", 2 ** 40 + 1)).toEqual({ index: 5001, first: false });
    // and so do epochs the 32-bit column cannot hold (an importer's, say), beside ones it can
    expect(numbering.see("neg", -1)).toEqual({ index: 5002, first: true });
    expect(numbering.see("neg", -1)).toBeNull();
    expect(numbering.see("neg", 2 ** 31 - 1)).toEqual({ index: 5002, first: false });
    expect(numbering.see("top", 2 ** 31 - 1)).toEqual({ index: 5003, first: true });
    expect(numbering.see("top", 2 ** 31 - 1)).toBeNull();
    expect(numbering.see("top", 2 ** 31)).toEqual({ index: 5003, first: false });
    expect(numbering.count).toBe(5004);
    numbering.close();
  });
});
