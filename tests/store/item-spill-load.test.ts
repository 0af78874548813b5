import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analysisThreadUrl } from "../../lib/store/analysis-thread-start";
import { loadNative } from "../../lib/store/load";
import { threadedNativeSource } from "../../lib/store/parallel-source";
import { EXAMPLES } from "../helpers/fixtures";
import { loadedRows, twoStores } from "../helpers/load-rows";
import { STORE_KINDS } from "../helpers/stores";

// A run past the reader's items in memory moves its item table to a temporary database
// (lib/native/item-numbering.ts). The load must not show it: the same numbering, the same
// duplicates reported at the same lines, the same rows as a load that kept it in memory.

const RUN_COLUMNS = `key, metrics, extras, "itemCount", "generationCount", h50`;

/** 400 items; a second epoch of some of the first ones after the table has moved; `duplicate`: a repeat of one of them. */
function file(duplicate: boolean): Buffer {
  const [run, ...rest] = fs.readFileSync(path.join(EXAMPLES, "arith-small.jsonl"), "utf8").trim().split("\n");
  const items = rest.slice(
    0,
    rest.findIndex((l) => JSON.parse(l).type === "run"),
  );
  const line = (k: number, epoch: number) => JSON.stringify({ ...JSON.parse(items[k % items.length]), id: `item-${k}`, epoch });
  const lines = [JSON.stringify({ ...JSON.parse(run), config: { temperature: 0, epochs: 2 } })];
  for (let k = 0; k < 400; k++) {
    lines.push(line(k, 0));
    if (k >= 200 && k % 10 === 0) lines.push(line(k - 190, 1));
    if (duplicate && k === 300) lines.push(line(7, 0));
  }
  return Buffer.from(lines.join("\n") + "\n");
}

describe.each(STORE_KINDS)("a run whose item table moves to disk on $name", (kind) => {
  const stores = twoStores(kind);

  it("gives the rows and reports of a load that kept it in memory", async () => {
    for (const duplicate of [false, true]) {
      const name = duplicate ? "duplicate.jsonl" : "epochs.jsonl";
      const bytes = file(duplicate);
      const a = await loadNative(stores.a, name, [bytes]);
      const b = await loadNative(stores.b, name, [bytes], { source: threadedNativeSource(analysisThreadUrl, { itemsInMemory: 50 }) });
      expect(b, name).toEqual(a);
      expect(a.ok, name).toBe(!duplicate);
      if (duplicate)
        expect(a.errors.map((e) => [e.line, e.message])).toEqual([[314, expect.stringMatching(/duplicate item 'item-7' \(epoch 0\)/)]]);
      else expect(a.runs[0].generations).toBe(420);
    }
    expect(await loadedRows(stores.b, RUN_COLUMNS)).toEqual(await loadedRows(stores.a, RUN_COLUMNS));
  }, 60_000);
});
