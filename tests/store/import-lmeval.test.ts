// lm-evaluation-harness files as their authors meant them (issue 16, points 3, 4, 5, 7 and
// repeats). Fixtures: tests/fixtures/import/generate.ts writes samples_<task>_<stamp>.jsonl
// records in lm-eval 0.4.x's shape ({doc_id, doc, target, arguments{gen_args_i{arg_0, arg_1}},
// resps, filtered_resps, filter, metrics, <metric>: value}, leaves of resps as text) and
// results_<stamp>.json ({results{task{"metric,filter"}}, configs{task{output_type}}, model_name, date}).
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { importFile } from "../../lib/import";
import { parseImportOptions } from "../../lib/import/options";
import { decodeModes } from "../../lib/analysis/failure-modes";
import {
  LM_STAMP,
  LM_TASK,
  lmCorpus,
  lmEvalResults,
  lmEvalSamples,
  lmInvalid,
  lmLoglikelihood,
  lmMultipleChoice,
  lmRepeats,
  lmResults,
  MC_CHOICES,
  mcPick,
  writeLmTask,
} from "../fixtures/import/generate";
import { STORE_KINDS, storedMetrics } from "../helpers/stores";
import { decodeItemContent } from "../../lib/store/item-content";
import { storedOutput } from "../../lib/store/output-text";

const opts = (o: Record<string, unknown> = {}) => {
  const r = parseImportOptions(o);
  if (!r.ok) throw new Error(r.error);
  return r.options;
};
const imp = (store: Store, file: string, o: Record<string, unknown> = {}) => importFile(store, file, file, opts(o));

describe.each(STORE_KINDS)("lm-eval files on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ store, drop } = await kind.create());
  });
  afterAll(async () => drop?.());

  const gens = (key: string) =>
    store.prisma.generation.findMany({
      where: { run: { key } },
      orderBy: [{ itemKey: "asc" }, { epoch: "asc" }],
      include: { item: { include: { content: true } } },
    });

  it("3. runs of the same task on two days stay apart: the date-time is in the key and created_at; a re-import says it replaced", async () => {
    const first = writeLmTask(LM_TASK, LM_STAMP, lmEvalSamples(6), lmEvalResults());
    const dir = path.dirname(first);
    const later = writeLmTask(LM_TASK, "2025-09-14T08-00-01.000001", lmEvalSamples(6), lmEvalResults(), dir);
    const a = await imp(store, first);
    const b = await imp(store, later);
    expect([a.errors, b.errors]).toEqual([[], []]);
    expect(a.runs[0].key).toBe(`lm-eval__sim-org-sim-mistral-7b__${LM_TASK}__strict-match__2025-08-01t10-20-30.123456`);
    expect(b.runs[0].key).not.toBe(a.runs[0].key);
    expect([a.runs[0].replaced, b.runs[0].replaced]).toEqual([false, false]);
    const runs = await store.prisma.run.findMany({ where: { key: { in: [a.runs[0].key, b.runs[0].key] } }, orderBy: { createdAt: "asc" } });
    expect(runs.map((r) => r.createdAt)).toEqual(["2025-08-01T10:20:30.123456", "2025-09-14T08:00:01.000001"]);
    const again = await imp(store, first);
    expect(again.runs[0].replaced).toBe(true);
  });

  it("4. multiple_choice: the argmax choice (text and index), per-choice log-likelihoods kept; loglikelihood: the continuation and greedy", async () => {
    const task = "capitals_mc";
    const mc = await imp(store, writeLmTask(task, LM_STAMP, lmMultipleChoice(), lmResults(task, "multiple_choice", { "acc,none": 0.75 })));
    expect(mc.errors).toEqual([]);
    const rows = await gens(mc.runs[0].key);
    expect(rows).toHaveLength(12);
    for (const g of rows) {
      const i = Number(g.itemKey.slice(4));
      expect(g.firstAnswer).toBe(MC_CHOICES[mcPick(i)].trim());
      expect(g.firstCorrect).toBe(mcPick(i) === i % 4);
      const meta = JSON.parse(g.metadata!);
      expect(meta.choice).toEqual({ index: mcPick(i), text: MC_CHOICES[mcPick(i)].trim() });
      expect(meta.loglikelihoods).toHaveLength(4);
      expect(meta.loglikelihoods[mcPick(i)]).toBe(-1.25);
      expect(decodeItemContent(g.item.content.body).input.reference_answer).toBe(`${MC_CHOICES[i % 4].trim()} [${i % 4}]`);
      expect(storedOutput(g.output, g.outputDeflated)).not.toMatch(/^\["/); // not the raw ["-10.125", "False"] pair
    }
    // without results_*.json the type is told from the shape (pairs, several per record)
    const inferred = await imp(store, writeLmTask(task + "_bare", LM_STAMP, lmMultipleChoice()), { model: "X-1" });
    expect((await store.prisma.run.findUniqueOrThrow({ where: { key: inferred.runs[0].key } })).config).toMatch(
      /"output_type":"multiple_choice"/,
    );

    const ll = await imp(
      store,
      writeLmTask("lambada_sim", LM_STAMP, lmLoglikelihood(), lmResults("lambada_sim", "loglikelihood", { "acc,none": 0.5 })),
    );
    expect(ll.errors).toEqual([]);
    const lg = await gens(ll.runs[0].key);
    expect(lg.map((g) => [g.firstAnswer, g.firstCorrect, JSON.parse(g.metadata!).greedy])).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => [`word${i}`, i % 2 === 0, i % 2 === 0]),
    );
    expect(storedOutput(lg[0].output, lg[0].outputDeflated)).toMatch(/target continuation: " word0"\nlog-likelihood: -0.5\ngreedy: yes/);
  });

  it("5. `[invalid]` (no answer extracted) is a format error, or a missing answer when the output is empty — not a slip", async () => {
    const r = await imp(store, writeLmTask("gsm8k_sim", LM_STAMP, lmInvalid(), lmResults("gsm8k_sim", "generate_until", {})));
    expect(r.errors).toEqual([]);
    const rows = await gens(r.runs[0].key);
    const byDoc = Object.fromEntries(rows.map((g) => [g.itemKey, { answer: g.firstAnswer, modes: decodeModes(g.modes) }]));
    expect(byDoc["doc-0"]).toEqual({ answer: null, modes: ["missing-answer"] });
    expect(byDoc["doc-5"]).toEqual({ answer: null, modes: ["format-error"] });
    expect(byDoc["doc-2"]).toEqual({ answer: "3", modes: ["slip"] });
    const m = (await storedMetrics(store, r.runs[0].key))!;
    expect([m.failure_modes.slip, m.failure_modes["format-error"], m.failure_modes["missing-answer"]]).toEqual([4, 1, 1]);
  });

  it("7. corpus-level metrics (per-sample arrays): outputs imported, run-level value from results_*.json, per-item correctness unavailable", async () => {
    const task = "wmt_sim";
    const r = await imp(
      store,
      writeLmTask(task, LM_STAMP, lmCorpus(), lmResults(task, "generate_until", { "bleu,none": 23.4, "chrf,none": 51 })),
    );
    expect(r.errors).toEqual([]);
    const run = await store.prisma.run.findUniqueOrThrow({ where: { key: r.runs[0].key } });
    const config = JSON.parse(run.config);
    expect(config.per_item_correctness).toBe("unavailable");
    expect(config.corpus_metric).toEqual({ name: "bleu", filter: "none", value: 23.4 });
    expect([run.firstAccuracy, run.lastAccuracy, run.l50]).toEqual([null, null, null]);
    const rows = await gens(r.runs[0].key);
    expect(rows).toHaveLength(5);
    expect(rows.every((g) => g.modes === 0 && JSON.parse(g.metadata!).correct === null)).toBe(true);
    expect(storedOutput(rows[0].output, rows[0].outputDeflated)).toBe("Sentence number 0");
    const chrf = await imp(
      store,
      writeLmTask(task, "2025-08-02T00-00-00.000000", lmCorpus(), lmResults(task, "generate_until", { "chrf,none": 51 })),
      { metric: "chrf" },
    );
    expect(JSON.parse((await store.prisma.run.findUniqueOrThrow({ where: { key: chrf.runs[0].key } })).config).corpus_metric.value).toBe(
      51,
    );
  });

  it("repeats: one answer per repeat becomes one epoch each; a filter keeping one answer gives one generation", async () => {
    const file = writeLmTask("rep_sim", LM_STAMP, lmRepeats(), lmResults("rep_sim", "generate_until", {}));
    const all = await imp(store, file, { filter: "all" });
    expect(all.errors).toEqual([]);
    const rows = await gens(all.runs[0].key);
    expect(rows.map((g) => [g.itemKey, g.epoch, g.firstCorrect])).toEqual(
      [0, 1, 2, 3].flatMap((i) => [0, 1, 2].map((r) => [`doc-${i}`, r, (i + r) % 2 === 0])),
    );
    expect(storedOutput(rows[1].output, rows[1].outputDeflated)).toBe(`The answer is 100`);
    const m = (await storedMetrics(store, all.runs[0].key))!;
    expect(m.generations).toBe(12);
    const first = await imp(store, file, { filter: "first" });
    const fr = await gens(first.runs[0].key);
    expect(fr).toHaveLength(4);
    expect(JSON.parse(fr[0].metadata!).repeats).toBe(3);
  });
});
