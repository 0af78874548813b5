import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadNative } from "../../lib/store/load";
import { AnalysisThread, analysisThreadUrl } from "../../lib/store/analysis-thread-start";
import { BATCH_LINES, IN_FLIGHT, LinesAhead } from "../../lib/store/lines-ahead";
import { parallelNativeSource, startedNativeSource, threadedNativeSource } from "../../lib/store/parallel-source";
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

  it("gives the in-thread loader's metrics and aggregates for each run of a file of several, an empty one among them", async () => {
    // The thread keeps each run's summaries and computes its aggregates at the run's end, while
    // the loader writes the run's last rows (lib/store/native-thread.ts): one run's must not
    // reach another, nor come before the loader has written the run's last generation.
    const lines = (name: string) => fs.readFileSync(path.join(EXAMPLES, name), "utf8").trim().split("\n");
    const [arithRun, ...arith] = lines("arith-small.jsonl");
    const [dictRun, ...dict] = lines("dictsum-small.jsonl");
    const empty = JSON.stringify({ ...JSON.parse(arithRun), key: "no-generations" });
    const bytes = Buffer.from([arithRun, ...arith, empty, dictRun, ...dict].join("\n") + "\n");
    const a = await loadNative(stores.a, "several.jsonl", [bytes]);
    const b = await loadNative(stores.b, "several.jsonl", chunks(bytes, 1021), { source: parallelNativeSource });
    expect(a.ok).toBe(true);
    // the examples hold several runs each: an empty one between them
    expect(a.runs.map((r) => r.generations)).toEqual([20, 20, 0, 20, 12, 8]);
    expect(a.runs.reduce((n, r) => n + r.generations, 0)).toBe(arith.length + dict.length - 3);
    expect(b).toEqual(a);
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

  it("reads valid lines of an unusual shape as the in-thread reader does, whichever line first needs the schemas", async () => {
    // The thread starts without zod and loads the schemas at the first line not of the common
    // shape (lib/native/line-reader.ts), mid-batch, while later batches queue: numeric item ids
    // (the schema makes them strings) and a run line whose model has a key the hand reader leaves to it.
    const [run, ...rest] = fs.readFileSync(path.join(EXAMPLES, "arith-small.jsonl"), "utf8").trim().split("\n");
    const items = rest.slice(
      0,
      rest.findIndex((l) => JSON.parse(l).type === "run"),
    );
    const unusualRun = JSON.stringify({ ...JSON.parse(run), model: { name: "m", params_b: "32" } });
    const build = (head: string, unusualAt: number) => {
      const lines = [head];
      for (let k = 0; k < 1500; k++) {
        const item = { ...JSON.parse(items[k % items.length]), id: `item-${k}` };
        lines.push(JSON.stringify(k % 300 === unusualAt ? { ...item, id: 100_000 + k } : item));
      }
      return Buffer.from(lines.join("\n") + "\n");
    };
    for (const [name, bytes] of [
      ["mid-batch.jsonl", build(run, 130)],
      ["run-line.jsonl", build(unusualRun, -1)],
    ] as const) {
      const a = await loadNative(stores.a, name, [bytes]);
      const b = await loadNative(stores.b, name, chunks(bytes, 4093), { source: parallelNativeSource });
      expect(b, name).toEqual(a);
      expect(a.errors.length, name).toBe(name === "run-line.jsonl" ? 1 : 0);
    }
    expect(await loadedRows(stores.b, RUN_COLUMNS)).toEqual(await loadedRows(stores.a, RUN_COLUMNS));
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

  it("gives the same reports, rows and progress with a file's first lines sent to its thread before the load", async () => {
    const [run, ...rest] = fs.readFileSync(path.join(EXAMPLES, "arith-small.jsonl"), "utf8").trim().split("\n");
    const items = rest.slice(
      0,
      rest.findIndex((l) => JSON.parse(l).type === "run"),
    ); // the first run's
    const spread = (n: number, bad: boolean) => {
      const lines = [run];
      for (let k = 0; k < n; k++) {
        const item = { ...JSON.parse(items[k % items.length]), id: `item-${k}` };
        lines.push(bad && k % 401 === 3 ? "{not json" : JSON.stringify(item));
      }
      return Buffer.from(lines.join("\n") + "\n");
    };
    // more lines than the batches sent ahead, errors among them and after; fewer (the file read whole ahead); none
    const files: [string, Buffer][] = [
      ["many.jsonl", spread(IN_FLIGHT * BATCH_LINES + 700, false)],
      ["many-bad.jsonl", spread(IN_FLIGHT * BATCH_LINES + 700, true)],
      ["arith-small.jsonl", fs.readFileSync(path.join(EXAMPLES, "arith-small.jsonl"))],
      ["empty.jsonl", Buffer.alloc(0)],
    ];
    for (const ahead of ["always", "never"] as const) {
      for (const [name, bytes] of files) {
        const seen = { a: 0, b: 0 };
        const a = await loadNative(stores.a, name, [bytes], { onProgress: (p) => (seen.a = p.bytes) });
        const thread = new AnalysisThread(analysisThreadUrl, { file: name, ahead });
        const lines = new LinesAhead(thread, chunks(bytes, 65_521), {
          compressesOutputs: kind.name === "sqlite",
          loaderWaitsOnServer: kind.name === "postgres",
        });
        await new Promise((r) => setTimeout(r, 50)); // the lines go over while nothing else happens
        const b = await loadNative(stores.b, name, lines.input, {
          source: startedNativeSource(thread, lines),
          onProgress: (p) => (seen.b = p.bytes),
        });
        await lines.close();
        expect(b, `${name}, ${ahead}`).toEqual(a);
        expect(seen.b, name).toBe(bytes.length);
        expect(seen.a, name).toBe(bytes.length);
        expect(a.ok, name).toBe(name === "many.jsonl" || name === "arith-small.jsonl");
      }
      expect(await loadedRows(stores.b, RUN_COLUMNS), ahead).toEqual(await loadedRows(stores.a, RUN_COLUMNS));
    }
  }, 120_000);
});
