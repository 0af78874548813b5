// Inspect AI logs as their authors meant them (issue 16, points 1, 2, 6, 9 and step traces).
// Fixtures are written by tests/fixtures/import/inspect-logs.ts in the shape of Inspect's log
// writer: a ZIP of header.json, summaries.json and samples/{id}_epoch_{n}.json.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { importFile } from "../../lib/import";
import { exportRun } from "../../lib/store/export";
import { INSPECT_MODEL, sampleError, writeInspectLog, type SimSample } from "../fixtures/import/inspect-logs";
import { STORE_KINDS, storedMetrics } from "../helpers/stores";
import { parseImportOptions } from "../../lib/import/options";
import { decodeItemContent } from "../../lib/store/item-content";

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
    const m = (await storedMetrics(store, key))!;
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

  it('2. dict-valued scores: --metric "Problem Correctness" and scorer.key; step counts kept; continuous values need --threshold', async () => {
    // A scorer `step_scorer` returns {"Problem Correctness": 0|1, "Total Correct": c, "Total Steps": 7};
    // header results.scores lists one score per key, each with scorer "step_scorer".
    const listed = ["Problem Correctness", "Total Correct", "Total Steps"].map((name) => ({ name, scorer: "step_scorer" }));
    const samples = [1, 2, 3, 4].map((i) => ({
      id: `p${i}`,
      target: "12",
      completion: `... <answer>${i <= 3 ? 12 : 13}</answer>`,
      scores: {
        step_scorer: {
          value: { "Problem Correctness": i <= 3 ? 1 : 0, "Total Correct": i <= 3 ? 7 : 4, "Total Steps": 7 },
          answer: String(i <= 3 ? 12 : 13),
          explanation: "steps checked",
        },
      },
    }));
    const file = writeInspectLog({ listed, samples, evalId: "dict1" });
    for (const metric of ["Problem Correctness", "step_scorer.Problem Correctness", undefined]) {
      const r = await imp(store, file, metric === undefined ? {} : { metric });
      expect(r.errors, String(metric)).toEqual([]);
      const m = (await storedMetrics(store, r.runs[0].key))!;
      expect([m.accuracy_by_length[0].n, m.accuracy_by_length[0].first_correct]).toEqual([4, 3]);
    }
    const g = await store.prisma.generation.findFirstOrThrow({ where: { itemKey: "p4" } });
    expect(JSON.parse(g.metadata!).step_counts).toEqual({ correct: 4, total: 7 });
    expect(JSON.parse(g.metadata!).scorer).toBe("step_scorer.Problem Correctness");
    // a count is not a correctness
    const count = await imp(store, file, { metric: "Total Correct" });
    expect(count.errors).toHaveLength(1);
    expect(count.errors[0].message).toMatch(/score 'Total Correct' is 7, not a correctness/);
    // the whole dict is not either
    const whole = await imp(store, file, { metric: "step_scorer" });
    expect(whole.errors[0].message).toMatch(/is a dict \(keys: Problem Correctness, Total Correct, Total Steps\)/);

    // a win rate in [0, 1]: refused naming the key, or thresholded when asked
    const rates = [0.25, 0.5, 0.75, 1].map((v, i) => ({
      id: `w${i}`,
      completion: "x",
      scores: { judge: { value: { win_rate: v, n_games: 4 }, explanation: "" } },
    }));
    const wfile = writeInspectLog({ listed: [{ name: "win_rate", scorer: "judge" }], samples: rates, evalId: "win1" });
    const refused = await imp(store, wfile);
    expect(refused.errors).toHaveLength(1);
    expect(refused.errors[0].field).toBe('samples/w0_epoch_1.json: scores.judge.value["win_rate"]');
    expect(refused.errors[0].message).toMatch(/score 'win_rate' is continuous \(0.25\).*--threshold/);
    const kept = await imp(store, wfile, { threshold: "0.5" });
    expect(kept.errors).toEqual([]);
    const wm = (await storedMetrics(store, kept.runs[0].key))!;
    expect(wm.accuracy_by_length[0].first_correct).toBe(3);
    expect((await runRow(store, kept.runs[0].key)).config.threshold).toBe(0.5);
    expect((await imp(store, wfile, { metric: "nope" })).errors[0].message).toMatch(
      /no score from scorer 'nope' \(scores: judge, win_rate/,
    );
  });

  it("6. token usage is the evaluated model's model_usage (all its calls), not output.usage (the last call)", async () => {
    // model_usage is keyed by model name: the evaluated model (two generate calls here) and a grader.
    const file = writeInspectLog({
      evalId: "usage1",
      samples: [
        {
          ...matchSample(2),
          usage: { input_tokens: 40, output_tokens: 9, total_tokens: 49 },
          model_usage: {
            [INSPECT_MODEL]: { input_tokens: 100, output_tokens: 30, total_tokens: 130 },
            "openai/sim-grader": { input_tokens: 500, output_tokens: 2, total_tokens: 502 },
          },
        },
        { ...matchSample(4), usage: { input_tokens: 11, output_tokens: 3, total_tokens: 14 } }, // an older log: no model_usage
      ],
    });
    const r = await imp(store, file);
    expect(r.errors).toEqual([]);
    const gens = await store.prisma.generation.findMany({ where: { run: { key: r.runs[0].key } }, orderBy: { itemKey: "asc" } });
    expect(gens.map((g) => [g.itemKey, g.promptTokens, g.completionTokens])).toEqual([
      ["2", 100, 30],
      ["4", 11, 3],
    ]);
  });

  it("9. the sample's target is its reference answer (a string, or the accepted strings)", async () => {
    const file = writeInspectLog({ evalId: "target1", samples: [matchSample(2), { ...matchSample(3), target: ["21", "twenty-one"] }] });
    const r = await imp(store, file);
    expect(r.errors).toEqual([]);
    const items = await store.prisma.item.findMany({
      where: { run: { key: r.runs[0].key } },
      orderBy: { key: "asc" },
      include: { content: true },
    });
    expect(items.map((i) => decodeItemContent(i.content.body).input.reference_answer)).toEqual(["14", "21 | twenty-one"]);
  });

  it("a step trace in the score's metadata or a JSON explanation gives the step alignment", async () => {
    const trace = (steps: (number | null)[]) => ({ reference: [3, 5, 9, 12], steps });
    const samples: SimSample[] = [
      // score.metadata carries the trace; all steps right
      { id: "t1", completion: "3 5 9 12", scores: { exec: { value: "C", answer: "12", metadata: trace([3, 5, 9, 12]) } } },
      // the explanation is JSON with the trace; a slip at step 3
      {
        id: "t2",
        completion: "3 5 8 11",
        scores: { exec: { value: "I", answer: "11", explanation: JSON.stringify(trace([3, 5, 8, 11])) } },
      },
      // sample metadata (reference_steps / model_steps); step 4 never stated
      {
        id: "t3",
        completion: "3 5 9",
        scores: { exec: { value: "I", answer: "9" } },
        metadata: { reference_steps: [3, 5, 9, 12], model_steps: [3, 5, 9, null] },
      },
    ];
    const r = await imp(store, writeInspectLog({ evalId: "trace1", listed: [{ name: "exec", scorer: "exec" }], samples }));
    expect(r.errors).toEqual([]);
    expect(r.runs[0].steps).toBe(12);
    const gens = await store.prisma.generation.findMany({ where: { run: { key: r.runs[0].key } }, orderBy: { itemKey: "asc" } });
    expect(gens.map((g) => [g.itemKey, g.statuses, g.firstDivergence, g.firstCorrect])).toEqual([
      ["t1", "cccc", null, true],
      ["t2", "ccss", 3, false],
      ["t3", "cccm", 4, false],
    ]);
    const m = (await storedMetrics(store, r.runs[0].key))!;
    expect(m.task_accuracy).not.toBeNull();
  });
});
