import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANONYMOUS } from "../../lib/auth/policy";
import type { Store } from "../../lib/db";
import { generateDataset } from "../../lib/generate/dataset";
import { getStudy, StudyAccessError, studyJson } from "../../lib/queries/study";
import { loadNative } from "../../lib/store/load";
import { readContextOf } from "../../lib/read-context";
import { migrate } from "../../lib/store/migrate";
import { parseStudyParams } from "../../lib/url/study";
import { STORE_KINDS } from "../helpers/stores";
import { arithReference, type ArithInput } from "../../lib/generate/arith";
import { decodeItemContent } from "../../lib/store/item-content";

// A simulated study with a known look-back effect: three models, each run at look-back 2 with
// step reliability 0.99 and at look-back 7 with 0.96 (the generator's smallest look-back is 2).
// The study view must show both reliabilities within their CIs, from the stored aggregates,
// and those must equal the same numbers counted from the generations themselves.

const MODELS = [
  { name: "Sim-Small-3B", params_b: 3, family: "Sim" },
  { name: "Sim-Mid-8B", params_b: 8, family: "Sim" },
  { name: "Sim-Large-70B", params_b: 70, family: "Other" },
];
const SETTINGS = [
  { lookback: 2, p: 0.99 },
  { lookback: 7, p: 0.96 },
];

function studyFile(): string {
  const lines: string[] = [];
  MODELS.forEach((model, m) => {
    for (const s of SETTINGS) {
      lines.push(
        ...generateDataset({
          benchmark: "procedural-arith",
          lengths: [5, 15, 25],
          itemsPerLength: 40,
          lookback: s.lookback,
          seed: 100 + m * 10 + s.lookback,
          simulate: { name: `${model.name}-lb${s.lookback}`, stepReliability: s.p, model: { ...model, thinking: false } },
          runKey: `${model.name}__lb${s.lookback}`,
        }),
      );
    }
  });
  return lines.join("\n") + "\n";
}

describe.each(STORE_KINDS)("study view on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  const ctx = () => readContextOf(store, ANONYMOUS, "open");
  beforeAll(async () => {
    ({ store, drop } = await kind.create());
    const r = await loadNative(store, "study.jsonl", [studyFile()]);
    expect(r.errors).toEqual([]);
  }, 120_000);
  afterAll(async () => drop?.());

  it("shows the simulated look-back effect on step accuracy within its CIs", async () => {
    const s = await getStudy(
      ctx(),
      parseStudyParams({ benchmark: "procedural-arith", x: "lookback", series: "all", metric: "step_accuracy" }),
    );
    expect(s.problem).toBeNull();
    expect(s.data).toHaveLength(1);
    const [lb2, lb7] = s.data[0].points;
    expect(lb2).toMatchObject({ x: 2, models: 3, n: 360, method: "bootstrap" });
    expect(lb7).toMatchObject({ x: 7, models: 3, n: 360 });
    expect(lb2.ci![0]).toBeLessThanOrEqual(0.99);
    expect(lb2.ci![1]).toBeGreaterThanOrEqual(0.99);
    expect(lb7.ci![0]).toBeLessThanOrEqual(0.96);
    expect(lb7.ci![1]).toBeGreaterThanOrEqual(0.96);
    // the effect is seen: the intervals do not overlap
    expect(lb7.ci![1]).toBeLessThan(lb2.ci![0]);
    // the API's and the CLI's JSON: the shape, values as fractions
    const json = studyJson(s);
    expect(json).toMatchObject({ benchmark: "procedural-arith", x: "lookback", metric: "step_accuracy" });
    expect(json.series[0].points[0]).toMatchObject({ x: 2, value: lb2.value, ci: lb2.ci, n: 360 });
    expect(Object.keys(json.series[0].points[0])).toEqual(expect.arrayContaining(["x", "value", "ci", "n"]));
    // and it costs first-answer accuracy
    const acc = await getStudy(ctx(), parseStudyParams({ benchmark: "procedural-arith", x: "lookback", series: "all" }));
    expect(acc.data[0].points[0].value!).toBeGreaterThan(acc.data[0].points[1].value!);
  });

  it("stores per run × length exactly what the generations say", async () => {
    const s = await getStudy(
      ctx(),
      parseStudyParams({ benchmark: "procedural-arith", x: "length", series: "model", metric: "first_accuracy" }),
    );
    const gens = await store.prisma.generation.findMany({
      select: { length: true, firstCorrect: true, statuses: true, run: { select: { model: { select: { name: true } } } } },
    });
    for (const series of s.data) {
      for (const pt of series.points) {
        const mine = gens.filter((g) => g.run.model.name === series.name && g.length === pt.x);
        expect(pt.n).toBe(mine.length);
        expect(pt.value).toBeCloseTo(mine.filter((g) => g.firstCorrect).length / mine.length, 12);
      }
    }
    const step = await getStudy(
      ctx(),
      parseStudyParams({ benchmark: "procedural-arith", x: "length", series: "model", metric: "step_accuracy" }),
    );
    for (const series of step.data) {
      for (const pt of series.points) {
        const mine = gens.filter((g) => g.run.model.name === series.name && g.length === pt.x);
        const local = mine.reduce((t, g) => t + [...g.statuses].filter((c) => c === "c" || c === "p").length, 0);
        const total = mine.reduce((t, g) => t + g.length, 0);
        expect(pt.value).toBeCloseTo(local / total, 12);
      }
    }
  });

  it("filters runs in SQL: model size, family and look-back", async () => {
    const s = await getStudy(
      ctx(),
      parseStudyParams({ benchmark: "procedural-arith", x: "size", series: "family", minSize: "5", lookback: "7" }),
    );
    expect(s.runs.map((r) => r.key).sort()).toEqual(["Sim-Large-70B__lb7", "Sim-Mid-8B__lb7"]);
    expect(s.data.map((d) => d.name)).toEqual(["Other", "Sim"]);
    expect(s.options.lookbacks).toEqual([2, 7]);
  });

  it("h50 per run, by look-back and model", async () => {
    const s = await getStudy(ctx(), parseStudyParams({ benchmark: "procedural-arith", x: "lookback", series: "model", metric: "h50" }));
    const runs = await store.prisma.run.findMany({ select: { key: true, h50: true, h50Censored: true } });
    for (const series of s.data)
      for (const pt of series.points) {
        expect(pt.n).toBe(1);
        const r = runs.find((q) => q.key === pt.runs[0])!;
        expect(pt.value).toBe(r.h50);
        // a censored run's H₀.₅ is a lower bound, and the point says so
        expect(pt.censored).toBe(r.h50Censored === true);
      }
  });

  it("refuses a reader who may not read every run before reading anything", async () => {
    await expect(getStudy(readContextOf(store, ANONYMOUS, "private"), parseStudyParams({}))).rejects.toThrow(StudyAccessError);
    const shareHolder = { kind: "anonymous" as const, shares: ["Sim-Mid-8B__lb2"] };
    await expect(getStudy(readContextOf(store, shareHolder, "private"), parseStudyParams({}))).rejects.toThrow(StudyAccessError);
  });

  it("leaves demo runs out once real runs exist, unless asked", async () => {
    await store.prisma.run.updateMany({ where: { key: "Sim-Small-3B__lb7" }, data: { demo: true } });
    try {
      const keys = async (demo?: string) =>
        (await getStudy(ctx(), parseStudyParams({ benchmark: "procedural-arith", ...(demo ? { demo } : {}) }))).runs.map((r) => r.key);
      const byDefault = await getStudy(ctx(), parseStudyParams({ benchmark: "procedural-arith" }));
      expect(byDefault.demoHidden).toBe(1);
      expect(byDefault.runs.map((r) => r.key)).not.toContain("Sim-Small-3B__lb7");
      expect(await keys("all")).toHaveLength(6);
      expect(await keys("yes")).toEqual(["Sim-Small-3B__lb7"]);
      expect(await keys("no")).toHaveLength(5);
    } finally {
      await store.prisma.run.updateMany({ where: { key: "Sim-Small-3B__lb7" }, data: { demo: false } });
    }
  });

  it("migration 0010 re-grades stored arith answers and backfills the study rows", async () => {
    // A store as an older version left it: a generation graded by another rule than the
    // current one (its stored answer is wrong, its grade says right), and no study table.
    const target = await store.prisma.generation.findFirstOrThrow({
      where: { firstCorrect: true, lastCorrect: true, modes: 0 },
      select: { id: true, runId: true, analysis: true, stepTrace: true, item: { select: { content: { select: { body: true } } } } },
    });
    // arith loads store no step trace (lib/store/step-trace.ts): the migration executes the item's input
    expect(target.stepTrace).toBeNull();
    const final = arithReference(decodeItemContent(target.item.content.body).input as unknown as ArithInput).at(-1)!;
    const analysis = JSON.parse(target.analysis);
    analysis.answers = [{ ...analysis.answers[0], value: final + 1 }];
    await store.prisma.generation.update({ where: { id: target.id }, data: { analysis: JSON.stringify(analysis) } });
    const before = await store.prisma.run.findUniqueOrThrow({
      where: { id: target.runId },
      select: { firstAccuracy: true, itemCount: true },
    });
    await store.raw.transaction(async (tx) => {
      await tx.exec(`DROP TABLE "RunStudyStat"`);
      await tx.exec(`DELETE FROM "_stepwise_migrations" WHERE "name" = '0010_study_stats.sql'`);
    });
    expect(await migrate(store.raw)).toEqual(["0010_study_stats.sql"]);
    const g = await store.prisma.generation.findUniqueOrThrow({ where: { id: target.id } });
    expect(g.firstCorrect).toBe(false);
    expect(g.lastCorrect).toBe(false);
    expect(g.clean).toBe(false);
    const after = await store.prisma.run.findUniqueOrThrow({ where: { id: target.runId }, select: { firstAccuracy: true } });
    expect(after.firstAccuracy!).toBeCloseTo(before.firstAccuracy! - 1 / before.itemCount, 12);
    expect(await store.prisma.runStudyStat.count()).toBe(6 * 3);
    const s = await getStudy(ctx(), parseStudyParams({ benchmark: "procedural-arith", x: "lookback", series: "all" }));
    expect(s.data[0].points).toHaveLength(2);
  });
});
