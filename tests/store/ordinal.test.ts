import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { loadNative } from "../../lib/store/load";
import { parallelNativeSource } from "../../lib/store/parallel-source";
import { EXAMPLES } from "../helpers/fixtures";
import { STORE_KINDS } from "../helpers/stores";

// Generation.ordinal is the place of a generation in its run's item order (item load order,
// then epoch): the generation page reads it instead of counting. It must equal that order
// whatever order the file lists generations in.

const all = fs.readFileSync(path.join(EXAMPLES, "arith-small.jsonl"), "utf8").trim().split("\n");
// the file's first run: its header and the item lines up to the next run
const next = all.findIndex((l, i) => i > 0 && l.includes('"type":"run"'));
const lines = next < 0 ? all : all.slice(0, next);
const header = JSON.parse(lines[0]) as { key: string; config: Record<string, unknown> };
const items = lines.slice(1).map((l) => JSON.parse(l) as Record<string, unknown>);

/** Two epochs per item, listed as e0 of every item and then e1 of every item (not item order). */
function interleavedEpochs(key: string): string {
  const run = { ...header, key, config: { ...header.config, epochs: 2 } };
  const out = [JSON.stringify(run)];
  for (const epoch of [0, 1]) for (const it of items) out.push(JSON.stringify({ ...it, epoch }));
  return out.join("\n") + "\n";
}

type Row = { itemId: number; epoch: number; ordinal: number | null };
const rowsOf = (store: Store, key: string) =>
  store.prisma.generation.findMany({
    where: { run: { key } },
    select: { itemId: true, epoch: true, ordinal: true },
    orderBy: [{ itemId: "asc" }, { epoch: "asc" }],
  }) as Promise<Row[]>;

describe.each(STORE_KINDS)("generation ordinals on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => ({ store, drop } = await kind.create()));
  afterAll(async () => drop?.());

  it("numbers a file in item order 1..n as it loads", async () => {
    const r = await loadNative(store, "arith-small.jsonl", [lines.join("\n") + "\n"]);
    expect(r.errors).toEqual([]);
    const rows = await rowsOf(store, header.key);
    expect(rows.length).toBe(items.length);
    expect(rows.map((x) => x.ordinal)).toEqual(rows.map((_, i) => i + 1));
  });

  it("numbers a file whose epochs are interleaved in item order, on both load paths", async () => {
    for (const [key, source] of [
      ["interleaved", undefined],
      ["interleaved-threads", parallelNativeSource],
    ] as const) {
      const r = await loadNative(store, "x.jsonl", [interleavedEpochs(key)], source ? { source } : {});
      expect(r.errors).toEqual([]);
      const rows = await rowsOf(store, key);
      expect(rows.length).toBe(items.length * 2);
      expect(rows[0].epoch).toBe(0);
      expect(rows[1].epoch).toBe(1); // same item, second epoch: the next place, not n + 1
      expect(rows[1].itemId).toBe(rows[0].itemId);
      expect(rows.map((x) => x.ordinal)).toEqual(rows.map((_, i) => i + 1));
    }
  });

  it("keeps numbering per run when a run is replaced", async () => {
    const r = await loadNative(store, "arith-small.jsonl", [lines.join("\n") + "\n"]);
    expect(r.errors).toEqual([]);
    const rows = await rowsOf(store, header.key);
    expect(rows.map((x) => x.ordinal)).toEqual(rows.map((_, i) => i + 1));
  });
});
