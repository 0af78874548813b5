import fs from "node:fs";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Store } from "../../lib/db";
import { exportRun } from "../../lib/store/export";
import { loadNative } from "../../lib/store/load";
import { analysisThreadUrl } from "../../lib/store/analysis-thread-start";
import { parallelNativeSource, threadedNativeSource } from "../../lib/store/parallel-source";
import { EXAMPLES } from "../helpers/fixtures";
import { STORE_KINDS, storedRuns } from "../helpers/stores";

vi.mock("server-only", () => ({}));

// U+0000 in a text field: PostgreSQL's text cannot hold it, so there the load refuses the line
// with its file, line and field (every such line reported, the store as it was), where before
// the server failed the load with "invalid byte sequence" and no line; SQLite stores the text
// and exports it unchanged. On both the in-thread and the two-thread reader.

const run = (key: string, model = "Nul-Model") =>
  JSON.stringify({ type: "run", key, model: { name: model }, benchmark: "generic", variant: { name: "nul" }, config: { epochs: 1 } });
const item = (id: string, output: string) => JSON.stringify({ type: "item", id, length: 1, input: { id }, reference: ["1"], output });
const FILE = [
  run("nul__run"),
  item("fine-1", "the answer is 1"),
  item("nul-out", "before\u0000after"),
  item("fine-2", "the answer is 2"),
  item("nul\u0000id", "fine"),
  run("nul__second", "Bad\u0000Model"),
  item("x", "y"),
].join("\n");

describe.each(STORE_KINDS)("text holding U+0000 on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ store, drop } = await kind.create());
    const example = `${EXAMPLES}/arith-small.jsonl`;
    expect((await loadNative(store, "arith-small.jsonl", fs.createReadStream(example))).ok).toBe(true);
  });
  afterAll(async () => drop());

  // the third: every generation's loader part done on the analysis thread (SQLite: its output compressed there)
  const sources = [
    ["1 thread", undefined],
    ["2 threads", parallelNativeSource],
    ["2 threads, the loader's part done ahead", threadedNativeSource(analysisThreadUrl, { ahead: "always" })],
  ] as const;
  for (const [threads, source] of sources) {
    it(`is refused with file, line and field on PostgreSQL, stored as it is on SQLite (${threads})`, async () => {
      const before = await storedRuns(store);
      const report = await loadNative(store, "nul.jsonl", Readable.from([FILE]), { source });
      if (kind.name === "postgres") {
        expect(report.ok).toBe(false);
        expect(report.errors.map((e) => `${e.file}:${e.line} ${e.field}`)).toEqual([
          "nul.jsonl:3 output",
          "nul.jsonl:5 id",
          "nul.jsonl:6 model.name",
        ]);
        expect(report.errors[0].message).toMatch(/U\+0000.*PostgreSQL/);
        expect(await storedRuns(store)).toEqual(before);
      } else {
        expect(report.errors).toEqual([]);
        const lines: string[] = [];
        for await (const l of exportRun(store.prisma, "nul__run")) lines.push(l);
        const outputs = lines.map((l) => JSON.parse(l) as { id?: string; output?: string }).filter((l) => l.output !== undefined);
        expect(outputs.map((o) => [o.id, o.output])).toEqual([
          ["fine-1", "the answer is 1"],
          ["nul-out", "before\u0000after"],
          ["fine-2", "the answer is 2"],
          ["nul\u0000id", "fine"],
        ]);
      }
    });
  }
});

// Counts the stores keep as integers (epoch, tokens): a fraction or a value past 2^31 − 1 is
// refused on both stores with its line and field (PostgreSQL failed the load with "invalid
// input syntax for type integer" and no line; SQLite kept 12.5 as it came).
const counts = [
  run("counts__run"),
  item("ok", "fine"),
  JSON.stringify({ type: "item", id: "half", length: 1, input: {}, reference: ["1"], output: "o", usage: { prompt_tokens: 12.5 } }),
  JSON.stringify({ type: "item", id: "huge", length: 1, input: {}, reference: ["1"], output: "o", usage: { completion_tokens: 3e9 } }),
  JSON.stringify({ type: "item", id: "late", length: 1, epoch: 2 ** 31, input: {}, reference: ["1"], output: "o" }),
  JSON.stringify({ type: "item", id: "most", length: 1, input: {}, reference: ["1"], output: "o", usage: { prompt_tokens: 2 ** 31 - 1 } }),
].join("\n");

describe.each(STORE_KINDS)("counts past the stores' integers on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => ({ store, drop } = await kind.create()));
  afterAll(async () => drop());

  for (const threads of [1, 2]) {
    it(`are refused with file, line and field (${threads} thread${threads > 1 ? "s" : ""})`, async () => {
      const report = await loadNative(store, "counts.jsonl", Readable.from([counts]), threads > 1 ? { source: parallelNativeSource } : {});
      expect(report.ok).toBe(false);
      expect(report.errors.map((e) => `${e.file}:${e.line} ${e.field}: ${e.message}`)).toEqual([
        "counts.jsonl:3 usage.prompt_tokens: must be a whole number from 0 to 2147483647",
        "counts.jsonl:4 usage.completion_tokens: must be a whole number from 0 to 2147483647",
        "counts.jsonl:5 epoch: must be a whole number from 0 to 2147483647",
      ]);
      expect(await storedRuns(store)).toEqual([]);
      // the largest count loads
      const fine = counts
        .split("\n")
        .filter((_, i) => i < 2 || i === 5)
        .join("\n");
      expect((await loadNative(store, "fine.jsonl", Readable.from([fine]))).errors).toEqual([]);
      await store.raw.transaction((tx) => tx.exec(`DELETE FROM "Run" WHERE "key" = 'counts__run'`));
    });
  }
});
