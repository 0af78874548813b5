import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Store } from "../../lib/db";
import { generateDataset } from "../../lib/generate/dataset";
import { NativeReader } from "../../lib/native/reader";
import { getGeneration } from "../../lib/queries/generation";
import { loadNative } from "../../lib/store/load";
import { EXAMPLES } from "../helpers/fixtures";
import { adminContext, runAccess, STORE_KINDS } from "../helpers/stores";

// The trace diff page's steps come from the generation's step trace record, or are recomputed
// where the load stored none (procedural-arith): for every
// generation of every example file they must be the aligned steps the analysis computed
// (values as text), read back through the page's own query, on both stores.
// The query module is server-only; here it is exercised on a store directly.
vi.mock("server-only", () => ({}));

const FILES = ["arith-small.jsonl", "dictsum-small.jsonl", "selfcond-small.jsonl", "generic-small.jsonl"];
const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

describe.each(STORE_KINDS)("trace diff steps on $name", (kind) => {
  let s: { store: Store; drop(): Promise<void> };
  beforeAll(async () => {
    s = await kind.create();
    for (const f of FILES) expect((await loadNative(s.store, f, fs.createReadStream(path.join(EXAMPLES, f)))).errors).toEqual([]);
    // and a run of three epochs per item, half of them failed: neighbours within an item and across items
    const epochs = [
      ...generateDataset({
        benchmark: "procedural-arith",
        lengths: [3, 4],
        itemsPerLength: 6,
        epochs: 3,
        seed: 5,
        simulateP: 0.8,
        model: "epochs-model",
        runKey: "epochs-run",
      }),
    ];
    expect((await loadNative(s.store, "epochs.jsonl", [epochs.join("\n") + "\n"])).errors).toEqual([]);
  }, 60_000);
  afterAll(async () => {
    await s?.drop();
  });

  it("reads back every generation's analysed steps", async () => {
    const ctx = adminContext(s.store);
    let generations = 0;
    let steps = 0;
    let operands = 0;
    for (const f of FILES) {
      const reader = new NativeReader(f);
      const lines = fs.readFileSync(path.join(EXAMPLES, f), "utf8").split("\n");
      for (let i = 0; i < lines.length; i++) {
        const ev = reader.line(lines[i], i + 1);
        if (ev?.kind !== "generation") continue;
        const access = await runAccess(ctx, ev.header.key);
        const detail = await getGeneration(ctx, access, ev.item.id, ev.item.epoch);
        expect(detail!.stepsError, `${f}:${i + 1}`).toBeNull();
        const want = ev.analysis.hasSteps
          ? ev.analysis.steps.map((st) => ({
              step: st.step,
              status: st.status,
              expected: String(st.expected),
              claimed: text(st.claimed),
              recomputed: text(st.recomputed),
              span: st.span ?? null,
              // the trace diff derives a wrong step's operand values (they are not stored): the analysis's own
              operands: st.status === "correct" ? null : (st.operands ?? null),
            }))
          : [];
        const got = detail!.steps.map(({ step, status, expected, claimed, recomputed, span, operands }) => ({
          step,
          status,
          expected,
          claimed,
          recomputed,
          span,
          operands,
        }));
        operands += got.filter((g) => g.operands !== null).length;
        expect(got, `${f}:${i + 1}`).toEqual(want);
        generations++;
        steps += want.length;
      }
    }
    expect(generations).toBeGreaterThan(100);
    expect(steps).toBeGreaterThan(1000);
    expect(operands).toBeGreaterThan(100);
  }, 120_000);

  // procedural-arith traces are recomputed from the item and output (lib/store/derived-trace.ts);
  // the others are stored. A store whose status letters disagree with the recomputation (loaded
  // by a version that analysed otherwise) gets the reason in the steps' place, never other steps.
  it("stores step traces only where they cannot be recomputed, and refuses a recomputation that disagrees", async () => {
    const runs = await s.store.prisma.run.findMany({ select: { id: true, key: true, benchmark: true, hasSteps: true } });
    const withTrace = async (runId: number) => s.store.prisma.generation.count({ where: { runId, stepTrace: { not: null } } });
    const arith = runs.filter((r) => r.benchmark === "procedural-arith");
    expect(arith.length).toBeGreaterThan(0);
    for (const r of arith) expect(await withTrace(r.id), r.key).toBe(0);
    const stored = runs.filter((r) => r.benchmark !== "procedural-arith" && r.hasSteps);
    expect(stored.length).toBeGreaterThan(0);
    for (const r of stored) expect(await withTrace(r.id), r.key).toBeGreaterThan(0);

    const ctx = adminContext(s.store);
    const gens = await s.store.prisma.generation.findMany({
      where: { runId: arith[0].id },
      orderBy: { id: "asc" },
      select: { id: true, itemKey: true, epoch: true, statuses: true },
    });
    const g = gens.find((x) => /[^c]/.test(x.statuses))!;
    const access = await runAccess(ctx, arith[0].key);
    expect((await getGeneration(ctx, access, g.itemKey, g.epoch))!.steps.map((st) => st.status[0])).toHaveLength(g.statuses.length);
    await s.store.prisma.generation.update({ where: { id: g.id }, data: { statuses: "c".repeat(g.statuses.length) } });
    try {
      const d = (await getGeneration(ctx, access, g.itemKey, g.epoch))!;
      expect(d.stepsError).toMatch(/other steps than the load recorded/);
      expect(d.steps).toEqual([]);
      expect(d.output.kind).toBe("text"); // the rest of the page stands
    } finally {
      await s.store.prisma.generation.update({ where: { id: g.id }, data: { statuses: g.statuses } });
    }
  });

  // The page's header and links, against the stored rows walked in item order (load order,
  // then epoch): position, the failed generation before and after, the item's epochs. Then
  // again with the ordinals gone (a run written one generation at a time is counted instead).
  it("places every generation in item order and links its failed neighbours", async () => {
    const ctx = adminContext(s.store);
    const runs = await s.store.prisma.run.findMany({ select: { id: true, key: true, model: { select: { name: true } } } });
    const check = async () => {
      let linked = 0;
      for (const run of runs) {
        const gens = await s.store.prisma.generation.findMany({
          where: { runId: run.id },
          orderBy: [{ itemId: "asc" }, { epoch: "asc" }],
          select: { itemId: true, itemKey: true, epoch: true, firstCorrect: true, modes: true, promptTokens: true, latencyMs: true },
        });
        const ref = (g: (typeof gens)[number] | undefined) => (g ? { itemId: g.itemKey, epoch: g.epoch } : null);
        const access = await runAccess(ctx, run.key);
        for (let i = 0; i < gens.length; i++) {
          const g = gens[i];
          const d = await getGeneration(ctx, access, g.itemKey, g.epoch);
          const where = `${run.key} ${g.itemKey}#${g.epoch}`;
          expect(d, where).not.toBeNull();
          expect(d!.position, where).toEqual({ index: i + 1, total: gens.length });
          expect(d!.prevFailed, where).toEqual(ref(gens.slice(0, i).findLast((x) => !x.firstCorrect)));
          expect(d!.nextFailed, where).toEqual(ref(gens.slice(i + 1).find((x) => !x.firstCorrect)));
          expect(d!.epochs, where).toEqual(gens.filter((x) => x.itemId === g.itemId).map((x) => x.epoch));
          expect([d!.run.model, d!.firstCorrect, d!.usage.promptTokens, d!.usage.latencyMs], where).toEqual([
            run.model.name,
            g.firstCorrect,
            g.promptTokens,
            g.latencyMs,
          ]);
          if (d!.prevFailed || d!.nextFailed) linked++;
        }
        expect(await getGeneration(ctx, access, gens[0].itemKey, 999)).toBeNull();
        expect(await getGeneration(ctx, access, "no such item", 0)).toBeNull();
      }
      expect(linked).toBeGreaterThan(50);
    };
    await check();
    await s.store.prisma.generation.updateMany({ data: { ordinal: null } });
    await check();
  }, 120_000);
});
