import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { importFile } from "../../lib/import";
import { parseImportOptions } from "../../lib/import/options";
import { LM_TASK, lmCorrect, lmSteps, metrJsonl, writeLmEval, writeTemp } from "../fixtures/import/generate";
import { describeRealdata, REALDATA } from "../helpers/shared-data";
import { STORE_KINDS, storedMetrics, storedRuns } from "../helpers/stores";
import { storedStepCount } from "../helpers/steps";
import { decodeItemContent } from "../../lib/store/item-content";
import { storedOutput } from "../../lib/store/output-text";

const REPRO = path.join(REALDATA, "illusion-repro-ping98k");
const FIX = path.resolve(__dirname, "../fixtures/import");

export const opts = (o: Record<string, unknown> = {}) => {
  const r = parseImportOptions(o);
  if (!r.ok) throw new Error(r.error);
  return r.options;
};
const imp = (store: Store, file: string, o: Record<string, unknown> = {}) => importFile(store, file, file, opts(o));

async function snapshot(store: Store) {
  const p = store.prisma;
  return {
    runs: await storedRuns(store),
    metrics: (await p.run.findMany({ select: { key: true, metrics: true }, orderBy: { key: "asc" } })).map((r) => r.key + r.metrics),
    counts: [await p.item.count(), await p.generation.count(), await storedStepCount(p), await p.runLengthStat.count()],
  };
}

describe.each(STORE_KINDS)("importers on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ store, drop } = await kind.create());
  });
  afterAll(async () => drop?.());

  describeRealdata("importers on real self-conditioning files", () => {
    it("imports the eight real self-conditioning files: every stored accuracy and the two slopes", async () => {
      const SELFCOND = fs
        .readdirSync(REPRO)
        .filter((f) => f.startsWith("self_conditioning_"))
        .sort();
      expect(SELFCOND).toHaveLength(8);
      const slopes: Record<string, number> = {};
      let checked = 0;
      for (const f of SELFCOND) {
        const file = path.join(REPRO, f);
        const r = await imp(store, file);
        expect(r.errors, f).toEqual([]);
        expect(r.format).toBe("selfcond");
        expect(r.runs).toHaveLength(1);
        const m = (await storedMetrics(store, r.runs[0].key))!;
        const doc = JSON.parse(fs.readFileSync(file, "utf8"));
        const rates = Object.keys(doc.data).sort((a, b) => Number(a) - Number(b));
        expect(m.self_conditioning!.points.map((p) => p.induced_error_rate)).toEqual(rates.map(Number));
        rates.forEach((rate, i) => {
          expect(m.self_conditioning!.points[i].accuracy, `${f} ${rate}`).toBe(doc.data[rate].accuracy);
          expect(m.self_conditioning!.points[i].n).toBe(doc.data[rate].samples.length);
          checked++;
        });
        expect(m.self_conditioning!.target_turn).toBe(100);
        expect(m.task_accuracy).toBeNull();
        expect(m.length_fit).toBeNull();
        slopes[m.model] = m.self_conditioning!.slope!;
      }
      expect(checked).toBe(40);
      expect(slopes["Qwen3.5-27B-Q3"]).toBeCloseTo(-0.204, 3);
      expect(slopes["Qwen3-Coder-Next-80B"]).toBeCloseTo(-0.852, 3);
      expect(Object.keys(slopes).sort()).toEqual(
        [
          "Qwen3-Coder-Next-80B",
          "Qwen3.5-122B-A10B-Q3",
          "Qwen3.5-27B-Q3",
          "Qwen3.5-2B-Q8",
          "Qwen3.5-35B-A3B-Q3",
          "Qwen3.5-35B-A3B-Q8",
          "Qwen3.5-4B-Q8",
          "Qwen3.5-9B-Q8",
        ].sort(),
      );
      const run = await store.prisma.run.findUniqueOrThrow({ where: { key: "selfcond__qwen3.5-27b-q3" } });
      expect(run.selfConditioning).toBe(true);
      expect(run.hasSteps).toBe(false);
    });

    it("replaces by run key, and a bad file changes nothing", async () => {
      const file = path.join(REPRO, "self_conditioning_27B_3Q.json");
      expect((await imp(store, file)).ok).toBe(true);
      expect(await store.prisma.run.count({ where: { key: "selfcond__qwen3.5-27b-q3" } })).toBe(1);
      const before = await snapshot(store);
      const doc = JSON.parse(fs.readFileSync(file, "utf8"));
      doc.data["0.5"].samples[7].correct = "yes";
      const bad = writeTemp("self_conditioning_27B_3Q.json", JSON.stringify(doc));
      const r = await imp(store, bad);
      expect(r.ok).toBe(false);
      expect(r.errors[0]).toMatchObject({ file: bad, field: 'data["0.5"].samples[7].correct' });
      expect(await snapshot(store)).toEqual(before);
      const none = await imp(store, writeTemp("notes.txt", "hello"));
      expect(none.errors[0].message).toMatch(/cannot import/);
      expect(await snapshot(store)).toEqual(before);
    });
  });

  it("imports measuring-execution eval_step_results.json with step and turn curves", async () => {
    const dir = path.join(FIX, "measuring", "2025-07-01_10-00-00_Sim-Qwen-8B_multi-turn_no-cot_thinking_wc_2");
    const r = await imp(store, path.join(dir, "eval_step_results.json"));
    expect(r.errors).toEqual([]);
    const m = (await storedMetrics(store, r.runs[0].key))!;
    expect(m.model).toBe("Sim-Qwen-8B");
    expect(m.accuracy_by_length).toMatchObject([{ length: 8, n: 4, first_correct: 2 }]);
    // instance 1 slips at turn 3 (step 5), 2 says nothing at turn 2 (step 3), 3 is unreadable at turn 4 (step 7)
    expect(m.first_divergence_histogram).toEqual([
      { step: 3, count: 1 },
      { step: 5, count: 1 },
      { step: 7, count: 1 },
    ]);
    expect(m.task_accuracy!.map((p) => p.accuracy)).toEqual([1, 1, 0.75, 0.75, 0.5, 0.5, 0.25, 0.25]);
    expect(m.failure_modes).toMatchObject({ "missing-answer": 1, "format-error": 1, slip: 1, "under-executed": 2 });
  });

  it("imports measuring-execution experiment_results.json, reading its Python-literal lists", async () => {
    const r = await imp(store, path.join(FIX, "measuring", "experiment_results.json"));
    expect(r.errors).toEqual([]);
    const m = (await storedMetrics(store, r.runs[0].key))!;
    expect(m.model).toBe("Sim-Llama-70B");
    expect(m.accuracy_by_length).toMatchObject([{ length: 6, n: 5, first_correct: 2 }]);
    expect(m.failure_modes).toMatchObject({ "missing-answer": 1, "format-error": 1, slip: 1, "under-executed": 3 });
    expect(m.step_accuracy).toHaveLength(6);
    const g = await store.prisma.generation.findFirstOrThrow({ where: { run: { key: r.runs[0].key }, itemKey: "instance-0" } });
    expect(storedOutput(g.output, g.outputDeflated)).toContain("<think>Let me add them.\nOK</think>"); // the raw text, unescaped from Python
  });

  it.each(["deflate", "zstd-attachments"])("imports an Inspect .eval log (%s)", async (which) => {
    const file = path.join(FIX, "inspect", `2025-09-01T12-00-00_arith-exec_${which}.eval`);
    const r = await imp(store, file);
    expect(r.errors).toEqual([]);
    expect(r.format).toBe("inspect");
    const m = (await storedMetrics(store, r.runs[0].key))!;
    // the generator's rule: item i has [4, 8, 16][i % 3] steps; correct when (i + epoch) % 3 != 0 (< 16 steps) or (i + epoch) even
    const want = new Map<number, { n: number; c: number }>();
    for (let i = 1; i <= 12; i++)
      for (const epoch of [1, 2]) {
        const L = [4, 8, 16][i % 3];
        const ok = L < 16 ? (i + epoch) % 3 !== 0 : (i + epoch) % 2 === 0;
        const e = want.get(L) ?? { n: 0, c: 0 };
        e.n++;
        e.c += ok ? 1 : 0;
        want.set(L, e);
      }
    expect(m.accuracy_by_length.map((a) => [a.length, a.n, a.first_correct])).toEqual(
      [...want.entries()].sort((a, b) => a[0] - b[0]).map(([L, e]) => [L, e.n, e.c]),
    );
    expect(m.items).toBe(12);
    expect(m.generations).toBe(24);
    expect(m.length_fit).not.toBeNull();
    const g = await store.prisma.generation.findFirstOrThrow({ where: { run: { key: r.runs[0].key }, itemKey: "item-5", epoch: 1 } });
    expect(storedOutput(g.output, g.outputDeflated)).toMatch(/ANSWER: /);
    expect(storedOutput(g.output, g.outputDeflated)).not.toContain("attachment://");
    const item = await store.prisma.item.findFirstOrThrow({
      where: { run: { key: r.runs[0].key }, key: "item-5" },
      include: { content: true },
    });
    expect(JSON.stringify(decodeItemContent(item.content.body).input)).toContain("Execute the");
    expect(g.promptTokens).toBeGreaterThan(0);
  });

  it("imports lm-eval samples: model from results_*.json, first filter and exact_match by default, --filter", async () => {
    const file = writeLmEval();
    const r = await imp(store, file);
    expect(r.errors).toEqual([]);
    const m = (await storedMetrics(store, r.runs[0].key))!;
    expect(m.model).toBe("sim-org/Sim-Mistral-7B");
    expect(m.variant).toBe(`lm-eval-${LM_TASK}`);
    const count = (filter: string) =>
      [2, 4, 8].map((L) => {
        const docs = Array.from({ length: 24 }, (_, i) => i).filter((i) => lmSteps(i) === L);
        return [L, docs.length, docs.filter((i) => lmCorrect(i, filter)).length];
      });
    expect(m.accuracy_by_length.map((a) => [a.length, a.n, a.first_correct])).toEqual(count("strict-match"));
    const flex = await imp(store, file, { filter: "flexible-extract" });
    const mf = (await storedMetrics(store, flex.runs[0].key))!;
    expect(mf.accuracy_by_length.map((a) => [a.length, a.n, a.first_correct])).toEqual(count("flexible-extract"));
    const noFilter = await imp(store, file, { filter: "nope" });
    expect(noFilter.errors[0].message).toMatch(/no record has filter 'nope'/);
    const noModel = await imp(store, writeLmEval(false));
    expect(noModel.errors[0].message).toMatch(/--model/);
    expect((await imp(store, writeLmEval(false), { model: "X-1" })).ok).toBe(true);
  });

  it("imports METR runs: one run per agent, minutes as length, METR's weighted fit", async () => {
    const file = writeTemp("all_runs.jsonl", metrJsonl());
    const r = await imp(store, file);
    expect(r.errors).toEqual([]);
    expect(r.runs.map((x) => x.key).sort()).toEqual(["metr__sim-agent-a", "metr__sim-agent-b"]);
    const a = (await storedMetrics(store, "metr__sim-agent-a"))!;
    const b = (await storedMetrics(store, "metr__sim-agent-b"))!;
    expect(a.length_fit!.l50).toBeGreaterThan(5);
    expect(b.length_fit!.l50).toBeGreaterThan(a.length_fit!.l50); // B is the stronger agent
    for (const m of [a, b]) {
      expect(m.length_fit!.l50_ci[0]).toBeLessThanOrEqual(m.length_fit!.l50);
      expect(m.length_fit!.l50_ci[1]).toBeGreaterThanOrEqual(m.length_fit!.l50);
      expect(m.task_accuracy).toBeNull();
    }
    const item = await store.prisma.item.findFirstOrThrow({
      where: { run: { key: "metr__sim-agent-a" }, key: "crypto/task_0" },
      include: { content: true },
    });
    expect(item.length).toBe(1); // 0.5 minutes, rounded up to the Int column's minimum
    expect(decodeItemContent(item.content.body).input.human_minutes).toBe(0.5);
    const one = await imp(store, file, { model: "Sim Agent B", key: "metr-b-only" });
    expect(one.runs.map((x) => x.key)).toEqual(["metr-b-only__sim-agent-b"]);
  });
});
