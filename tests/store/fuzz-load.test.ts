// A fuzzed native file either loads fully or leaves the store exactly as it was. Each case
// mutates a valid two-run file whose run keys already exist in the store (so a load that
// succeeds replaces them): lines cut, dropped, repeated, swapped, fields given wrong types,
// garbage and deeply nested lines inserted, bytes flipped, the file cut short.
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { generateDataset } from "../../lib/generate/dataset";
import { loadNative } from "../../lib/store/load";
import { orphanCounts, runSnapshot, NO_ORPHANS } from "../helpers/faults";
import { EXAMPLES } from "../helpers/fixtures";
import { STORE_KINDS, storedRuns } from "../helpers/stores";
import { storedStepCount } from "../helpers/steps";

const BASE = [
  ...fs
    .readFileSync(path.join(EXAMPLES, "generic-small.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim()),
  ...generateDataset({
    benchmark: "procedural-arith",
    lengths: [5, 9],
    itemsPerLength: 6,
    seed: 41,
    simulateP: 0.95,
    runKey: "fuzz__arith",
  }),
];

/** Everything a reader could see of the store. */
async function storeState(store: Store) {
  const p = store.prisma;
  return {
    runs: await storedRuns(store),
    metrics: (await p.run.findMany({ select: { key: true, metrics: true, extras: true }, orderBy: { key: "asc" } })).map(
      (r) => r.key + r.metrics + r.extras,
    ),
    counts: [
      await p.model.count(),
      await p.variant.count(),
      await p.item.count(),
      await p.generation.count(),
      await storedStepCount(p),
      await p.runLengthStat.count(),
      await p.runStepStat.count(),
    ],
  };
}

const junk = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.constantFrom(
    "{",
    "[]",
    "null",
    '{"type":"item"}',
    '{"type":"run"}',
    "[".repeat(500) + "]".repeat(500),
    '{"type":"item","id":"g-01","reference":[1],"steps":[1],"answer":1}',
  ),
);
const wrong = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(null, -1, 1e309, "", "NaN", [], {}));

type Mutation = (lines: string[]) => string[];
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.nat(), fc.double({ min: 0, max: 1, noNaN: true })).map(
    ([i, at]): Mutation =>
      (ls) =>
        ls.map((l, k) => (k === i % ls.length ? l.slice(0, Math.floor(at * l.length)) : l)),
  ),
  fc.nat().map(
    (i): Mutation =>
      (ls) =>
        ls.filter((_, k) => k !== i % ls.length),
  ),
  fc.nat().map((i): Mutation => (ls) => [...ls.slice(0, (i % ls.length) + 1), ls[i % ls.length], ...ls.slice((i % ls.length) + 1)]),
  fc.tuple(fc.nat(), fc.nat()).map(([i, j]): Mutation => (ls) => {
    const out = ls.slice();
    [out[i % ls.length], out[j % ls.length]] = [out[j % ls.length], out[i % ls.length]];
    return out;
  }),
  fc.tuple(fc.nat(), fc.nat(), wrong).map(
    ([i, f, v]): Mutation =>
      (ls) =>
        ls.map((l, k) => {
          if (k !== i % ls.length) return l;
          try {
            const o = JSON.parse(l);
            const keys = Object.keys(o);
            o[keys[f % keys.length]] = v;
            return JSON.stringify(o);
          } catch {
            return l;
          }
        }),
  ),
  fc.tuple(fc.nat(), junk).map(([i, j]): Mutation => (ls) => [...ls.slice(0, i % (ls.length + 1)), j, ...ls.slice(i % (ls.length + 1))]),
  fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 })).map(
    ([i, at, b]): Mutation =>
      (ls) =>
        ls.map((l, k) =>
          k === i % ls.length && l.length ? l.slice(0, at % l.length) + String.fromCharCode(b) + l.slice((at % l.length) + 1) : l,
        ),
  ),
);

describe.each(STORE_KINDS)("fuzzed native loads on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ store, drop } = await kind.create());
    for (const f of ["arith-small.jsonl", "dictsum-small.jsonl"])
      expect((await loadNative(store, f, fs.createReadStream(path.join(EXAMPLES, f)))).errors).toEqual([]);
    expect((await loadNative(store, "base.jsonl", [BASE.join("\n") + "\n"])).errors).toEqual([]);
  });
  afterAll(async () => drop?.());

  it("every mutated file loads whole or changes nothing (60 cases)", { timeout: 240_000 }, async () => {
    const tally = { loaded: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.nat(4), async (mutations, cut) => {
        let lines = BASE;
        for (const m of mutations) lines = m(lines);
        let text = lines.join("\n") + "\n";
        if (cut === 0) text = text.slice(0, Math.floor(text.length * 0.7)); // a file cut off mid-line
        const before = await storeState(store);
        const started = Date.now();
        const report = await loadNative(store, "fuzz.jsonl", [text]);
        expect(Date.now() - started).toBeLessThan(30_000);
        if (report.ok) {
          tally.loaded++;
          expect(report.errors).toEqual([]);
          for (const run of report.runs) {
            const s = await runSnapshot(store, run.key);
            expect([s.items, s.generations, s.steps]).toEqual([run.items, run.generations, run.steps]);
          }
          const after = await storeState(store);
          const loaded = new Set(report.runs.map((r) => r.key));
          expect(after.runs.filter((r) => !loaded.has(r.key))).toEqual(before.runs.filter((r) => !loaded.has(r.key)));
        } else {
          tally.refused++;
          expect(report.errors.length).toBeGreaterThan(0);
          for (const e of report.errors) {
            expect(e.file).toBe("fuzz.jsonl");
            expect(e.message.length).toBeGreaterThan(0);
          }
          expect(report.runs).toEqual([]);
          expect(await storeState(store)).toEqual(before);
        }
        expect(await orphanCounts(store)).toEqual(NO_ORPHANS);
      }),
      { numRuns: 60, seed: 42 },
    );
    console.log(`fuzz-load ${kind.name}: ${JSON.stringify(tally)}`);
    expect(tally.refused).toBeGreaterThan(10);
    expect(tally.loaded).toBeGreaterThan(0);
  });
});
