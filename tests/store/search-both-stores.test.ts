import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getAllRunItems } from "../../lib/queries/items";
import { loadNative } from "../../lib/store/load";
import { parseRunParams } from "../../lib/url/run";
import { adminContext, runAccess, STORE_KINDS, type StoreKind } from "../helpers/stores";
import type { Store } from "../../lib/db";

vi.mock("server-only", () => ({}));

// Search means the same on both stores: the same queries over the same outputs find the same
// generations on SQLite and PostgreSQL, and those an independent fold of ASCII letters finds.
// Only ASCII letters fold (SQLite has no Unicode case folding without ICU: docs/decisions.md);
// `%`, `_` and `\` are text, not wildcards. Both stores are compared in one test when
// STEPWISE_TEST_PG is set; without it the SQLite half still runs against the expectation.

const KEY = "search__both-stores";
const OUTPUTS: Record<string, string> = {
  upper: "THE ANSWER IS 42",
  lower: "the answer is 42",
  mixed: "The Answer is 42",
  umlautUpper: "GRÖSSE ÄPFEL",
  umlautLower: "größe äpfel",
  sharp: "Straße",
  accented: "Éclair éclair",
  dotted: "İstanbul istanbul",
  percent: "100% done",
  underscore: "snake_case value",
  backslash: "C:\\temp\\file",
  wildcardish: "100x done, snakeXcase",
  greek: "ΣΊΣΥΦΟΣ σίσυφος",
  // Non-ASCII letters whose upper or lower case is ASCII (ſ → S, K → k): they must not fold.
  longS: "ſtep by ſtep",
  kelvin: "at 300 \u212A",
};
const QUERIES = [
  "step",
  "STEP",
  "300 k",
  "answer",
  "ANSWER",
  "AnSwEr",
  "the a",
  "ä",
  "Ä",
  "ÄPFEL",
  "größe",
  "GRÖSSE",
  "straße",
  "STRASSE",
  "éclair",
  "ÉCLAIR",
  "istanbul",
  "İSTANBUL",
  "%",
  "100%",
  "0% d",
  "_",
  "e_c",
  "\\",
  "\\temp",
  "x",
  "σ",
  "Σ",
  "ΣΊΣΥΦΟΣ",
  "zzz",
];

function fileText(): string {
  const head = {
    type: "run",
    key: KEY,
    model: { name: "Search-Model" },
    benchmark: "generic",
    variant: { name: "search" },
    config: { epochs: 1 },
  };
  const items = Object.entries(OUTPUTS).map(([id, output]) => ({
    type: "item",
    id,
    length: 1,
    reference: [1],
    steps: [1],
    answer: 1,
    output,
  }));
  return [head, ...items].map((l) => JSON.stringify(l)).join("\n") + "\n";
}

const foldAscii = (t: string) => t.replace(/[A-Z]/g, (c) => c.toLowerCase());
const expected = (q: string) =>
  Object.entries(OUTPUTS)
    .filter(([, o]) => foldAscii(o).includes(foldAscii(q)))
    .map(([id]) => id)
    .sort();

describe("search on both stores", () => {
  const opened: { kind: StoreKind; store: Store; drop: () => Promise<void> }[] = [];
  beforeAll(async () => {
    for (const kind of STORE_KINDS) {
      const { store, drop } = await kind.create();
      opened.push({ kind, store, drop });
      const r = await loadNative(store, "search.jsonl", [fileText()]);
      expect(r.errors).toEqual([]);
    }
  });
  afterAll(async () => {
    for (const o of opened) await o.drop();
  });

  it("finds the same generations on every store, ASCII letters folded, wildcards literal", async () => {
    const found: Record<string, Record<string, string[]>> = {};
    for (const { kind, store } of opened) {
      const ctx = adminContext(store);
      const run = await runAccess(ctx, KEY);
      found[kind.name] = {};
      for (const q of QUERIES) {
        const rows = await getAllRunItems(ctx, run, parseRunParams({ q }), 1000);
        found[kind.name][q] = rows.map((r) => r.itemId).sort();
      }
    }
    const want = Object.fromEntries(QUERIES.map((q) => [q, expected(q)]));
    for (const name of Object.keys(found)) expect(found[name], name).toEqual(want);
    // The expectation is not vacuous: folding, non-folding and literal wildcards all show.
    expect(want["ANSWER"]).toEqual(["lower", "mixed", "upper"]);
    expect(want["Ä"]).toEqual(["umlautUpper"]);
    expect(want["step"]).toEqual([]);
    expect(want["300 k"]).toEqual([]);
    expect(want["%"]).toEqual(["percent"]);
    expect(want["_"]).toEqual(["underscore"]);
    expect(want["\\"]).toEqual(["backslash"]);
  });

  it("finds the same by its re-check alone, with no index to narrow it (a run not yet indexed)", async () => {
    for (const { kind, store } of opened) {
      // On SQLite the index's candidates come first; without them every output is re-checked.
      await store.prisma.run.updateMany({ where: { key: KEY }, data: { searchIndexed: false } });
      const ctx = adminContext(store);
      const run = await runAccess(ctx, KEY);
      for (const q of QUERIES) {
        const rows = await getAllRunItems(ctx, run, parseRunParams({ q }), 1000);
        expect(rows.map((r) => r.itemId).sort(), `${kind.name}: ${q}`).toEqual(expected(q));
      }
    }
  });
});
