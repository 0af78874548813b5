import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { computeRunMetrics } from "../../lib/analysis/metrics";
import { loadNative } from "../../lib/store/load";
import { diffMetrics, expectedMetrics, expectedRuns } from "../helpers/expected-metrics";
import { EXAMPLES } from "../helpers/fixtures";
import { STORE_KINDS, storedMetrics, storedRuns } from "../helpers/stores";
import { readExample } from "../unit/examples-fixture";
import { storedStepCount } from "../helpers/steps";

const VALID = ["arith-small.jsonl", "dictsum-small.jsonl", "selfcond-small.jsonl", "generic-small.jsonl"];
const load = (store: Store, name: string, text?: string) =>
  loadNative(store, name, text !== undefined ? [text] : fs.createReadStream(path.join(EXAMPLES, name)));

/** Everything a reader could see of the store, for before/after comparisons. */
async function snapshot(store: Store) {
  const p = store.prisma;
  return {
    runs: await storedRuns(store),
    metrics: (await p.run.findMany({ select: { key: true, metrics: true }, orderBy: { key: "asc" } })).map((r) => r.key + r.metrics),
    counts: [
      await p.item.count(),
      await p.generation.count(),
      await storedStepCount(p),
      await p.runLengthStat.count(),
      await p.runStepStat.count(),
    ],
  };
}

describe.each(STORE_KINDS)("native loader on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ store, drop } = await kind.create());
    for (const f of VALID) {
      const r = await load(store, f);
      expect(r.errors).toEqual([]);
    }
  });
  afterAll(async () => drop?.());

  it("reproduces every expected run from tests/fixtures/examples/expected", async () => {
    for (const run of expectedRuns()) {
      const actual = await storedMetrics(store, run.run);
      expect(actual, run.run).not.toBeNull();
      expect(diffMetrics(actual, expectedMetrics(run), "", true), run.run).toEqual([]);
      // The stored numbers, bootstrap intervals included, are exactly the pure computation's.
      const pure = readExample(run.file).runs.get(run.run)!;
      expect(actual).toEqual(computeRunMetrics(pure.header, pure.summaries).metrics);
    }
  });

  it("lists runs in the §6 shape", async () => {
    const runs = await storedRuns(store);
    expect(runs.map((r) => r.key).sort()).toEqual(
      expectedRuns()
        .map((r) => r.run)
        .sort(),
    );
    expect(Object.keys(runs[0]).sort()).toEqual(["benchmark", "created_at", "generations", "items", "key", "model", "variant"]);
  });

  it("refuses invalid.jsonl with every expected error and changes nothing", async () => {
    const before = await snapshot(store);
    const report = await load(store, "invalid.jsonl");
    expect(report.ok).toBe(false);
    const wanted = fs
      .readFileSync(path.join(EXAMPLES, "invalid.expected.txt"), "utf8")
      .split("\n")
      .filter((l) => l.startsWith("line "))
      .map((l) => l.split("|").map((s) => s.trim()));
    for (const [line, field] of wanted) {
      const n = Number(line.replace("line ", ""));
      expect(
        report.errors.some((e) => e.line === n && e.field === field && e.file === "invalid.jsonl"),
        `${line} ${field}`,
      ).toBe(true);
    }
    expect(await snapshot(store)).toEqual(before);
  });

  it("replaces a run atomically by key, and keeps the old one when the new load fails", async () => {
    const text = fs.readFileSync(path.join(EXAMPLES, "generic-small.jsonl"), "utf8");
    const [header, ...items] = text.trim().split("\n");
    const key = JSON.parse(header).key as string;
    const smaller = [header, ...items.slice(0, 4)].join("\n") + "\n";
    expect((await load(store, "smaller.jsonl", smaller)).ok).toBe(true);
    expect((await storedMetrics(store, key))?.items).toBe(4);

    const before = await snapshot(store);
    const broken = [header, ...items.slice(0, 6), '{"type":"item","id":'].join("\n");
    const report = await load(store, "broken.jsonl", broken);
    expect(report.ok).toBe(false);
    expect(report.errors[0]).toMatchObject({ file: "broken.jsonl", line: 8, field: "-" });
    expect(await snapshot(store)).toEqual(before);

    expect((await load(store, "generic-small.jsonl")).ok).toBe(true);
    expect((await storedMetrics(store, key))?.items).toBe(10);
    expect(await store.prisma.run.count({ where: { key } })).toBe(1);
  });

  it("stores per-step results and aggregates that agree with the metrics", async () => {
    const run = await store.prisma.run.findUniqueOrThrow({
      where: { key: "sim-alpha-8b__lb3-r1_10-mixed__2026-06-01" },
      include: { stepStats: { orderBy: { step: "asc" } }, lengthStats: { orderBy: { length: "asc" } } },
    });
    const m = JSON.parse(run.metrics);
    expect(run.stepStats.map((s) => s.taskCorrect / s.n)).toEqual(
      m.task_accuracy.map((p: { accuracy: number }) => expect.closeTo(p.accuracy, 5)),
    );
    expect(run.lengthStats.map((s) => s.firstCorrect)).toEqual(m.accuracy_by_length.map((r: { first_correct: number }) => r.first_correct));
    const steps = await storedStepCount(store.prisma, run.id);
    expect(steps).toBe(m.accuracy_by_length.reduce((t: number, r: { length: number; n: number }) => t + r.length * r.n, 0));
  });
});

describe("native loader's page cache on SQLite", () => {
  it("is as before once a load ends, loaded or refused (a load grows it for its own writes)", async () => {
    const { store, drop } = await STORE_KINDS[0].create();
    try {
      expect(store.raw.provider).toBe("sqlite");
      const cacheSize = () =>
        store.raw.transaction(async (tx) => (await tx.query<{ cache_size: number }>("PRAGMA cache_size"))[0].cache_size);
      const before = await cacheSize();
      expect((await load(store, "arith-small.jsonl")).ok).toBe(true);
      expect(await cacheSize()).toBe(before);
      expect((await load(store, "invalid.jsonl")).ok).toBe(false);
      expect(await cacheSize()).toBe(before);
    } finally {
      await drop?.();
    }
  });
});
