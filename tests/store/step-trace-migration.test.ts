import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import type { GenerationAnalysis } from "../../lib/analysis/types";
import { NativeReader } from "../../lib/native/reader";
import { exportRun } from "../../lib/store/export";
import { loadNative } from "../../lib/store/load";
import { listMigrations } from "../../lib/store/migrate";
import { upgradedStore } from "../helpers/old-store";
import { storedStepCount } from "../helpers/steps";
import { EXAMPLES } from "../helpers/fixtures";
import { STORE_KINDS, storedRuns } from "../helpers/stores";

// Migration 0009 on a store made by the previous version: migrations 0001–0008 and the rows
// its writer stored (a StepResult row per step). After the upgrade every generation's
// stepTrace must be the record today's writer makes for the same file (none for
// procedural-arith, which migration 0021 then drops as recomputable), the step rows gone, and
// the runs' metrics, listing and export unchanged.
const FILES = ["arith-small.jsonl", "dictsum-small.jsonl", "selfcond-small.jsonl", "generic-small.jsonl"];
const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

/** The previous writer's StepResult rows of one analysed generation (lib/store/rows.ts before 0009). */
function previousStepRows(genId: number, a: GenerationAnalysis): unknown[][] {
  if (!a.hasSteps) return [];
  return a.steps.map((s) => [
    genId,
    s.step,
    s.status,
    String(s.expected),
    text(s.claimed),
    text(s.recomputed),
    s.span?.[0] ?? null,
    s.span?.[1] ?? null,
  ]);
}

describe.each(STORE_KINDS)("migration 0009 (step rows to step traces) on $name", (kind) => {
  let current: Store;
  let upgraded: Store;
  let drop: (() => Promise<void>) | undefined;
  let stepRows = 0;
  beforeAll(async () => {
    // current: today's writer, for the rows other than the steps and as the oracle
    ({ current, upgraded, drop } = await upgradedStore(kind, {
      migration: "0009",
      files: FILES,
      after: async (src, dst) => {
        const genIds = new Map<string, number>();
        for (const g of await src.query<{ id: number; key: string; itemKey: string; epoch: number }>(
          `SELECT g."id", r."key", g."itemKey", g."epoch" FROM "Generation" g JOIN "Run" r ON r."id" = g."runId"`,
        ))
          genIds.set(`${g.key}\u0000${g.itemKey}\u0000${g.epoch}`, Number(g.id));
        for (const f of FILES) {
          const reader = new NativeReader(f);
          const lines = fs.readFileSync(path.join(EXAMPLES, f), "utf8").split("\n");
          const rows: unknown[][] = [];
          lines.forEach((l, i) => {
            const ev = reader.line(l, i + 1);
            if (ev?.kind !== "generation") return;
            const id = genIds.get(`${ev.header.key}\u0000${ev.item.id}\u0000${ev.item.epoch}`);
            expect(id, `${f}:${i + 1}`).toBeDefined();
            rows.push(...previousStepRows(id!, ev.analysis));
          });
          expect(reader.errors).toEqual([]);
          await dst.insertRows(
            "StepResult",
            ["generationId", "step", "status", "expected", "claimed", "recomputed", "spanStart", "spanEnd"],
            rows,
          );
          stepRows += rows.length;
        }
      },
    })); // opened: 0009 and every later migration applied
  }, 120_000);
  afterAll(async () => drop?.());

  it("turns every generation's step rows into the record today's writer stores", async () => {
    expect(stepRows).toBeGreaterThan(1000);
    const traces = async (s: Store) =>
      (
        await s.raw.transaction((tx) =>
          tx.query<{ id: number; stepTrace: Uint8Array | null }>(`SELECT "id", "stepTrace" FROM "Generation" ORDER BY "id"`),
        )
      ).map((r) => [Number(r.id), r.stepTrace === null ? null : Buffer.from(r.stepTrace).toString("base64")]);
    const want = await traces(current);
    expect(want.filter(([, t]) => t !== null).length).toBeGreaterThanOrEqual(50);
    // procedural-arith's records, made from the step rows, then dropped by 0021 as recomputable
    // (kept had they not decoded to the steps the recomputation gives): none, as a load writes now
    const arith = await upgraded.prisma.generation.count({ where: { run: { benchmark: "procedural-arith" } } });
    expect(arith).toBeGreaterThanOrEqual(40); // arith-small.jsonl
    expect(await upgraded.prisma.generation.count({ where: { run: { benchmark: "procedural-arith" }, stepTrace: { not: null } } })).toBe(0);
    expect(await traces(upgraded)).toEqual(want);
    expect(await storedStepCount(upgraded.prisma)).toBe(stepRows);
  });

  it("drops the step rows' table and records the migration once", async () => {
    const tables = await upgraded.raw.transaction((tx) =>
      tx.query<{ n: number }>(
        upgraded.provider === "sqlite"
          ? `SELECT COUNT(*) AS "n" FROM sqlite_master WHERE type = 'table' AND name = 'StepResult'`
          : `SELECT COUNT(*) AS "n" FROM pg_tables WHERE tablename = 'StepResult'`,
      ),
    );
    expect(Number(tables[0].n)).toBe(0);
    const applied = await upgraded.raw.transaction((tx) =>
      tx.query<{ name: string }>(`SELECT "name" FROM "_stepwise_migrations" ORDER BY "name"`),
    );
    expect(applied.map((r) => r.name)).toEqual(listMigrations(upgraded.provider).map((m) => m.name));
  });

  it("keeps the runs' metrics and export, and loads new files afterwards", async () => {
    expect(await storedRuns(upgraded)).toEqual(await storedRuns(current));
    for (const run of await storedRuns(current)) {
      const lines = async (s: Store) => {
        const out: string[] = [];
        for await (const l of exportRun(s.prisma, run.key)) out.push(l);
        return out;
      };
      expect(await lines(upgraded), run.key).toEqual(await lines(current));
    }
    const again = await loadNative(upgraded, "arith-small.jsonl", fs.createReadStream(path.join(EXAMPLES, "arith-small.jsonl")));
    expect(again.errors).toEqual([]);
  });
});
