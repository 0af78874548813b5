import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Store } from "../../lib/db";
import { getGeneration } from "../../lib/queries/generation";
import { decodeStepTrace, encodeStepTrace } from "../../lib/store/step-trace";
import { upgradedStore } from "../helpers/old-store";
import { writeArithTraces } from "../helpers/steps";
import { adminContext, runAccess, STORE_KINDS } from "../helpers/stores";

// Migration 0021 on a store made by the previous version (every procedural-arith generation
// with its step trace stored): a trace the recomputation from item and output reproduces is
// dropped, one it does not is kept and still shown as stored; other benchmarks' traces stay.
vi.mock("server-only", () => ({}));

const FILES = ["arith-small.jsonl", "dictsum-small.jsonl"];

describe.each(STORE_KINDS)("migration 0021 (arith step traces recomputed) on $name", (kind) => {
  let current: Store;
  let upgraded: Store;
  let drop: (() => Promise<void>) | undefined;
  let written = 0;
  let shifted = 0;
  let relabelled = 0;
  beforeAll(async () => {
    ({ current, upgraded, drop } = await upgradedStore(kind, {
      migration: "0021",
      files: FILES,
      after: async (src, dst) => {
        written = await writeArithTraces(src, dst, FILES, (steps) => encodeStepTrace(steps)!);
        const arith = await dst.query<{ id: number; stepTrace: Uint8Array; statuses: string }>(
          `SELECT g."id", g."stepTrace", g."statuses" FROM "Generation" g JOIN "Run" r ON r."id" = g."runId"
           WHERE r."benchmark" = 'procedural-arith' ORDER BY g."id"`,
        );
        // one record whose steps differ from the recomputation (a span moved by a character)
        const a = arith.find((g) => decodeStepTrace(g.stepTrace).some((s) => s.span))!;
        const steps = decodeStepTrace(a.stepTrace);
        const k = steps.findIndex((s) => s.span);
        steps[k] = { ...steps[k], span: [steps[k].span![0] + 1, steps[k].span![1] + 1] };
        await dst.exec(`UPDATE "Generation" SET "stepTrace" = $1 WHERE "id" = $2`, [encodeStepTrace(steps), a.id]);
        shifted = Number(a.id);
        // one whose status letters the recomputation does not give (an earlier version's analysis)
        const b = arith.find((g) => Number(g.id) !== shifted && /[^c]/.test(g.statuses))!;
        await dst.exec(`UPDATE "Generation" SET "statuses" = $1 WHERE "id" = $2`, ["c".repeat(b.statuses.length), b.id]);
        relabelled = Number(b.id);
      },
    })); // opened: 0021 applied
  }, 120_000);
  afterAll(async () => drop?.());

  it("drops the traces it reproduces, keeps the two it does not, and leaves other benchmarks' alone", async () => {
    expect(written).toBeGreaterThanOrEqual(40); // arith-small.jsonl
    const kept = await upgraded.prisma.generation.findMany({
      where: { run: { benchmark: "procedural-arith" }, stepTrace: { not: null } },
      select: { id: true },
      orderBy: { id: "asc" },
    });
    expect(kept.map((g) => g.id)).toEqual([shifted, relabelled].sort((x, y) => x - y));
    const others = async (s: Store) =>
      (
        await s.prisma.generation.findMany({
          where: { run: { benchmark: { not: "procedural-arith" } } },
          select: { itemKey: true, epoch: true, stepTrace: true },
          orderBy: { id: "asc" },
        })
      ).map((g) => [g.itemKey, g.epoch, g.stepTrace && Buffer.from(g.stepTrace).toString("base64")]);
    const want = await others(current);
    expect(want.filter((g) => g[2] !== null).length).toBeGreaterThan(0);
    expect(await others(upgraded)).toEqual(want);
  });

  it("shows a kept trace as stored, and every other as the load would have", async () => {
    const ctx = adminContext(upgraded);
    const gens = await upgraded.prisma.generation.findMany({
      where: { run: { benchmark: "procedural-arith" } },
      select: { id: true, itemKey: true, epoch: true, stepTrace: true, run: { select: { key: true } } },
    });
    const fresh = adminContext(current);
    for (const g of gens) {
      const got = await getGeneration(ctx, await runAccess(ctx, g.run.key), g.itemKey, g.epoch);
      if (g.id === relabelled || g.id === shifted) {
        expect(got!.steps.map((s) => s.span)).toEqual(decodeStepTrace(g.stepTrace).map((s) => s.span));
        continue;
      }
      const want = await getGeneration(fresh, await runAccess(fresh, g.run.key), g.itemKey, g.epoch);
      expect(got!.steps, `${g.itemKey}#${g.epoch}`).toEqual(want!.steps);
    }
  });
});
