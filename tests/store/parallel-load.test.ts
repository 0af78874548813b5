import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadNative } from "../../lib/store/load";
import { analysisThreadUrl } from "../../lib/store/analysis-thread-start";
import { parallelNativeSource, threadedNativeSource } from "../../lib/store/parallel-source";
import { EXAMPLES } from "../helpers/fixtures";
import { loadedRows, twoStores } from "../helpers/load-rows";
import { STORE_KINDS } from "../helpers/stores";

// The analysis thread (lib/store/parallel-source.ts) must be invisible: the same file loaded
// in-thread and on the second thread gives the same report and the same rows.
const FILES = ["arith-small.jsonl", "dictsum-small.jsonl", "selfcond-small.jsonl", "generic-small.jsonl", "invalid.jsonl"];
/** Odd-sized chunks, so lines and UTF-8 sequences straddle chunk boundaries. */
function* chunks(bytes: Buffer, size = 997) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const RUN_COLUMNS = `key, metrics, extras, "itemCount", "generationCount", h50`;

describe.each(STORE_KINDS)("loading on the analysis thread on $name", (kind) => {
  const stores = twoStores(kind);

  it("gives the in-thread loader's reports and rows for every example file", async () => {
    for (const name of FILES) {
      const bytes = fs.readFileSync(path.join(EXAMPLES, name));
      const a = await loadNative(stores.a, name, [bytes]);
      const b = await loadNative(stores.b, name, chunks(bytes), { source: parallelNativeSource });
      expect(b, name).toEqual(a);
      expect(a.ok, name).toBe(name !== "invalid.jsonl");
    }
    expect(await loadedRows(stores.b, RUN_COLUMNS)).toEqual(await loadedRows(stores.a, RUN_COLUMNS));
  }, 60_000);

  it("reports errors spread over many of the thread's replies in file order, as the in-thread reader does", async () => {
    // 300 items (the thread answers in pieces of 32 generations), a line that is not JSON and
    // a field error every so often, so errors arrive in several pieces of several batches
    const [run, ...items] = fs.readFileSync(path.join(EXAMPLES, "arith-small.jsonl"), "utf8").trim().split("\n");
    const lines = [run];
    for (let k = 0; k < 300; k++) {
      const item = { ...JSON.parse(items[k % items.length]), id: `item-${k}` };
      if (k % 97 === 5) lines.push("{not json");
      else if (k % 41 === 7) lines.push(JSON.stringify({ ...item, length: -1 }));
      else lines.push(JSON.stringify(item));
    }
    const bytes = Buffer.from(lines.join("\n") + "\n");
    const a = await loadNative(stores.a, "spread.jsonl", [bytes]);
    const b = await loadNative(stores.b, "spread.jsonl", chunks(bytes, 4093), { source: parallelNativeSource });
    expect(a.ok).toBe(false);
    expect(a.errors.length).toBeGreaterThanOrEqual(10);
    expect(b).toEqual(a);
  }, 60_000);

  it("gives the same rows, item contents and search index whichever generations get the loader's part done on the analysis thread", async () => {
    // three stores' worth of loads in a and b: in-thread, then the thread doing that part for every generation, then for none
    const contents = async (store: typeof stores.a) => ({
      ...(await loadedRows(store, RUN_COLUMNS)),
      ItemContent: await store.prisma.$queryRawUnsafe(`SELECT * FROM "ItemContent" ORDER BY id`),
      SearchPosting: await store.prisma.$queryRawUnsafe(`SELECT * FROM "SearchPosting" ORDER BY "runId", "trigram", "block"`),
    });
    for (const ahead of ["always", "never"] as const) {
      for (const name of FILES) {
        const bytes = fs.readFileSync(path.join(EXAMPLES, name));
        const a = await loadNative(stores.a, name, [bytes]);
        const b = await loadNative(stores.b, name, chunks(bytes), { source: threadedNativeSource(analysisThreadUrl, { ahead }) });
        expect(b, `${name}, ${ahead}`).toEqual(a);
      }
      const [a, b] = [await contents(stores.a), await contents(stores.b)];
      expect((a.ItemContent as unknown[]).length).toBeGreaterThan(0);
      expect((a.SearchPosting as unknown[]).length).toBeGreaterThan(0);
      expect(b, ahead).toEqual(a);
    }
  }, 90_000);

  it("reports an empty input and a file without run line as the in-thread reader does", async () => {
    for (const text of ["", "\n\n", '{"type":"item"}\n']) {
      const a = await loadNative(stores.a, "x.jsonl", [text]);
      const b = await loadNative(stores.b, "x.jsonl", [text], { source: parallelNativeSource });
      expect(b).toEqual(a);
      expect(a.ok).toBe(false);
    }
  }, 30_000);
});
