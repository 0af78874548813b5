// Inspect AI logs as their authors meant them (issue 16, points 1, 2, 6, 9 and step traces).
// Fixtures are written by tests/fixtures/import/inspect-logs.ts in the shape of Inspect's log
// writer: a ZIP of header.json, summaries.json and samples/{id}_epoch_{n}.json.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { importFile } from "../../lib/import";
import { exportRun } from "../../lib/store/export";
import { getRunMetrics } from "../../lib/store/read";
import { INSPECT_MODEL, sampleError, writeInspectLog, type SimSample } from "../fixtures/import/inspect-logs";
import { writeTemp } from "../fixtures/import/generate";
import { STORE_KINDS } from "../helpers/stores";
import { parseImportOptions } from "../../lib/import/options";

const opts = (o: Record<string, unknown> = {}) => {
  const r = parseImportOptions(o);
  if (!r.ok) throw new Error(r.error);
  return r.options;
};
const imp = (store: Store, file: string, o: Record<string, unknown> = {}) => importFile(store, file, file, opts(o));

/** match-scored samples: item i is correct when i is even. */
const matchSample = (i: number): SimSample => ({
  id: i,
  target: String(i * 7),
  completion: `Step 1: ...\nANSWER: ${i % 2 === 0 ? i * 7 : i * 7 + 1}`,
  scores: { match: { value: i % 2 === 0 ? "C" : "I", answer: String(i % 2 === 0 ? i * 7 : i * 7 + 1), explanation: "" } },
});

async function runRow(store: Store, key: string) {
  const r = await store.prisma.run.findUniqueOrThrow({ where: { key } });
  return { ...r, source: JSON.parse(r.source) as Record<string, unknown>, config: JSON.parse(r.config) as Record<string, unknown> };
}

describe.each(STORE_KINDS)("Inspect logs on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ store, drop } = await kind.create());
  });
  afterAll(async () => drop?.());

  it("1. errored samples (`error`, scores {}; header status error) are left out and counted; --strict refuses; all errored is refused", async () => {
    const samples = [1, 2, 3, 4, 5, 6].map((i) =>
      i === 3 || i === 5 ? { id: i, scores: {}, error: sampleError(`RuntimeError: tool call ${i} timed out`) } : matchSample(i),
    );
    const file = writeInspectLog({ status: "error", samples });
    const r = await imp(store, file);
    expect(r.errors).toEqual([]);
    expect(r.notes).toEqual(["skipped 2 errored samples (ids 3, 5)"]);
    const key = r.runs[0].key;
    const run = await runRow(store, key);
    expect(run.source.errored_samples).toEqual({ count: 2, ids: ["3", "5"] });
    expect(run.generationCount).toBe(4);
    const m = (await getRunMetrics(store.prisma, key))!;
    expect(m.accuracy_by_length[0].first_correct).toBe(3); // kept ids 1, 2, 4, 6; the even ones are correct
    // the export's run line keeps the count (it lives in the run's source)
    const lines: string[] = [];
    for await (const l of exportRun(store.prisma, key)) lines.push(l);
    expect(JSON.parse(lines[0]).source.errored_samples).toEqual({ count: 2, ids: ["3", "5"] });
    // and a re-import replaces the run, saying so, with the same count
    const again = await imp(store, file);
    expect(again.runs[0].replaced).toBe(true);
    expect((await runRow(store, key)).source.errored_samples).toEqual({ count: 2, ids: ["3", "5"] });

    const strict = await imp(store, file, { strict: "true" });
    expect(strict.ok).toBe(false);
    expect(strict.errors.map((e) => e.field)).toEqual(["samples/3_epoch_1.json: error", "samples/5_epoch_1.json: error"]);
    expect(strict.errors[0].message).toMatch(/errored \(RuntimeError: tool call 3 timed out\)/);

    const all = await imp(
      store,
      writeInspectLog({
        status: "error",
        samples: [1, 2].map((i) => ({ id: i, scores: {}, error: sampleError("ValueError: bad sandbox") })),
      }),
    );
    expect(all.ok).toBe(false);
    expect(all.errors).toHaveLength(1);
    expect(all.errors[0].message).toMatch(/all 2 samples errored \(first: ValueError: bad sandbox\)/);
  });
});
