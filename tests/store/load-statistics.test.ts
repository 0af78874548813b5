import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { generateRun } from "../../lib/generate/dataset";
import { loadNative } from "../../lib/store/load";
import { STORE_KINDS } from "../helpers/stores";

// PostgreSQL's planner statistics after a load (lib/store/statistics.ts): Generation and Item
// analysed inside the load's transaction with its last run, the small tables and Generation's
// visibility map after the commit.

const postgres = STORE_KINDS.find((k) => k.name === "postgres");
if (!postgres) console.log("load-statistics: skipped, STEPWISE_TEST_PG names no PostgreSQL server");

function runLines(key: string, seed: number): string[] {
  const { header, items } = generateRun({
    benchmark: "procedural-arith",
    runKey: key,
    model: `model-${seed}`,
    lengths: [5, 15],
    itemsPerLength: 150,
    seed,
    simulateP: 0.95,
  });
  return [JSON.stringify(header), ...[...items()].map((i) => JSON.stringify(i))];
}

describe.skipIf(!postgres)("a load's planner statistics on PostgreSQL", () => {
  let store: Store;
  let drop: () => Promise<void>;
  const query = <T>(sql: string) => store.raw.transaction((tx) => tx.query<T>(sql));
  beforeAll(async () => {
    ({ store, drop } = await postgres!.create());
    const text = [...runLines("stats-a", 1), ...runLines("stats-b", 2)].join("\n") + "\n";
    const report = await loadNative(store, "two-runs.jsonl", [text]);
    expect(report.errors).toEqual([]);
    expect(report.runs.map((r) => r.generations)).toEqual([300, 300]);
  }, 60_000);
  afterAll(async () => drop?.());

  it("gathers Generation's and Item's statistics over every run of the file", async () => {
    const tables = await query<{ relname: string; reltuples: number }>(
      `SELECT relname, reltuples FROM pg_class WHERE relname IN ('Generation', 'Item') ORDER BY relname`,
    );
    expect(tables.map((t) => [t.relname, Number(t.reltuples)])).toEqual([
      ["Generation", 600],
      ["Item", 600],
    ]);
    const runIds = await query<{ tablename: string; n_distinct: number }>(
      `SELECT tablename, n_distinct FROM pg_stats WHERE attname = 'runId' AND tablename IN ('Generation', 'Item') ORDER BY tablename`,
    );
    expect(runIds.map((r) => [r.tablename, Number(r.n_distinct)])).toEqual([
      ["Generation", 2],
      ["Item", 2],
    ]);
  });

  it("leaves out the wide columns no query filters by, and keeps the output's", async () => {
    const columns = (await query<{ attname: string }>(`SELECT attname FROM pg_stats WHERE tablename = 'Generation'`)).map((r) => r.attname);
    expect(columns).toEqual(expect.arrayContaining(["runId", "itemId", "length", "firstDivergence", "firstCorrect", "output"]));
    for (const wide of ["analysis", "statuses", "given", "metadata", "firstAnswer", "lastAnswer"]) expect(columns).not.toContain(wide);
  });

  it("sets Generation's visibility map and analyses the small tables after the commit", async () => {
    const [gen] = await query<{ relpages: number; relallvisible: number }>(
      `SELECT relpages, relallvisible FROM pg_class WHERE relname = 'Generation'`,
    );
    expect(Number(gen.relallvisible)).toBeGreaterThan(0);
    expect(Number(gen.relallvisible)).toBe(Number(gen.relpages));
    const small = await query<{ relname: string; analysed: boolean }>(
      `SELECT relname, last_analyze IS NOT NULL AS analysed FROM pg_stat_user_tables
        WHERE relname IN ('RunLengthStat', 'RunStepStat', 'RunSignpost') ORDER BY relname`,
    );
    expect(small.map((t) => [t.relname, t.analysed])).toEqual([
      ["RunLengthStat", true],
      ["RunSignpost", true],
      ["RunStepStat", true],
    ]);
  });
});
