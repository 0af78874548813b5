import fs from "node:fs";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Store } from "../../lib/db";
import { exportRun } from "../../lib/store/export";
import { loadNative } from "../../lib/store/load";
import { parallelNativeSource } from "../../lib/store/parallel-source";
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

  for (const threads of [1, 2]) {
    it(`is refused with file, line and field on PostgreSQL, stored as it is on SQLite (${threads} thread${threads > 1 ? "s" : ""})`, async () => {
      const before = await storedRuns(store);
      const report = await loadNative(store, "nul.jsonl", Readable.from([FILE]), threads > 1 ? { source: parallelNativeSource } : {});
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
