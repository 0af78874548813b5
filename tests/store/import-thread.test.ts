import path from "node:path";
import { describe, expect, it } from "vitest";
import { importFile } from "../../lib/import";
import { parseImportOptions } from "../../lib/import/options";
import { BATCH_EVENTS, IN_FLIGHT, startImportThread } from "../../lib/import/parallel";
import { metrJsonl, writeLmEval, writeTemp } from "../fixtures/import/generate";
import { sampleError, writeInspectLog, type SimSample } from "../fixtures/import/inspect-logs";
import { loadedRows, twoStores } from "../helpers/load-rows";
import { STORE_KINDS } from "../helpers/stores";

// The import thread (lib/import/parallel.ts) must be invisible: every importer run there gives
// the in-thread import's report (notes and errors included) and the same rows, on both stores.
const FIX = path.join(import.meta.dirname, "../fixtures/import");
const RUN_COLUMNS = `key, benchmark, config, source, metrics, extras, "itemCount", "generationCount", h50`;

const options = (o: Record<string, unknown> = {}) => {
  const r = parseImportOptions(o);
  if (!r.ok) throw new Error(r.error);
  return r.options;
};

const MANY = 2 * IN_FLIGHT * BATCH_EVENTS;

const sample = (i: number): SimSample =>
  i % 5 === 3
    ? { id: i, error: sampleError(`RuntimeError: sample ${i} failed`) }
    : {
        id: i,
        target: String(i),
        completion: `Step 1: ${i}\nANSWER: ${i % 3 ? i : i + 1}`,
        scores: {
          match: {
            value: i % 3 ? "C" : "I",
            answer: String(i % 3 ? i : i + 1),
            metadata: { reference: [1, i], steps: [1, i % 3 ? i : null] },
          },
        },
      };

describe.each(STORE_KINDS)("importing on the import thread on $name", (kind) => {
  const stores = twoStores(kind);

  it("gives the in-thread import's reports and rows for every format, errored samples and failures included", async () => {
    const files: [string, Record<string, unknown>][] = [
      [path.join(FIX, "inspect/2025-09-01T12-00-00_arith-exec_deflate.eval"), {}],
      [path.join(FIX, "inspect/2025-09-01T12-00-00_arith-exec_zstd-attachments.eval"), {}],
      // More samples than the batches in flight hold (so the thread waits for the loader's
      // acknowledgements), every fifth errored: the run's source is completed after its generations
      [writeInspectLog({ samples: Array.from({ length: MANY }, (_, i) => sample(i)), evalId: "threadlog" }), {}],
      [writeInspectLog({ samples: Array.from({ length: 20 }, (_, i) => sample(i)), evalId: "strictlog" }), { strict: true }],
      [path.join(FIX, "measuring/2025-07-01_10-00-00_Sim-Qwen-8B_multi-turn_no-cot_thinking_wc_2/eval_step_results.json"), {}],
      [path.join(FIX, "measuring/experiment_results.json"), { model: "Sim-Qwen-8B" }],
      [writeLmEval(), {}],
      [writeTemp("all_runs.jsonl", metrJsonl()), {}],
      [writeTemp("bad.eval", "PK\u0003\u0004 not a zip"), {}],
      [writeTemp("nothing.json", "{}"), {}],
    ];
    const reports = [];
    for (const [file, o] of files) {
      const a = await importFile(stores.a, file, file, options(o));
      const b = await importFile(stores.b, file, file, options(o), undefined, startImportThread);
      expect(b, file).toEqual(a);
      reports.push(b);
    }
    expect(reports.map((r) => r.ok)).toEqual([true, true, true, false, true, true, true, true, false, false]);
    expect(reports[2].notes[0]).toMatch(new RegExp(`^skipped ${Math.floor((MANY + 1) / 5)} errored samples \\(ids 3, 8, `));
    expect(await loadedRows(stores.b, RUN_COLUMNS)).toEqual(await loadedRows(stores.a, RUN_COLUMNS));
  }, 300_000);

  it("gives the same item contents and search index as an import on the loader's thread", async () => {
    const file = writeInspectLog({ samples: Array.from({ length: 300 }, (_, i) => sample(i)), evalId: "contentlog" });
    const contents = async (store: typeof stores.a) => ({
      ...(await loadedRows(store, RUN_COLUMNS)),
      ItemContent: await store.prisma.$queryRawUnsafe(`SELECT * FROM "ItemContent" ORDER BY id`),
      SearchPosting: await store.prisma.$queryRawUnsafe(`SELECT * FROM "SearchPosting" ORDER BY "runId", "trigram", "block"`),
    });
    const a = await importFile(stores.a, file, file, options());
    const b = await importFile(stores.b, file, file, options(), undefined, startImportThread);
    expect(b).toEqual(a);
    expect(a.ok).toBe(true);
    expect(await contents(stores.b)).toEqual(await contents(stores.a));
  }, 120_000);
});
