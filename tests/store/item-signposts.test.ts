import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RunAccess } from "../../lib/auth/run-access";
import type { Store } from "../../lib/db";
import type { ReadContext } from "../../lib/read-context";
import { generateDataset } from "../../lib/generate/dataset";
import { getRunItems, type ItemRow } from "../../lib/queries/items";
import { loadNative } from "../../lib/store/load";
import { SIGNPOST_EVERY } from "../../lib/store/signposts";
import { parseRunParams, type RunParams } from "../../lib/url/run";
import { oracleItems } from "../helpers/item-oracle";
import { adminContext, runAccess, runAccessWhile, STORE_KINDS } from "../helpers/stores";

// A typed page number of the item table (no cursor) seeks from a stored signpost
// (lib/store/signposts.ts) instead of OFFSET from the top. Every page, both directions, all
// generations and the failed ones, must be the slice of Prisma's order (findMany with the
// same filters and sort), on a run large enough for several signposts per list, written in
// item order (the writer counts the signposts as the rows come) and out of it (epochs
// reversed: the loader renumbers the run and finds them by ordered passes over it).

vi.mock("server-only", () => ({}));

const KEY = "signposts-run";

function runFile(inOrder: boolean): string {
  const [head, ...items] = [
    ...generateDataset({
      benchmark: "procedural-arith",
      lengths: [3, 6, 9],
      itemsPerLength: 250,
      epochs: 2,
      seed: 11,
      simulateP: 0.8,
      model: "signpost-model",
      runKey: KEY,
      variantName: "signposts",
    }),
  ];
  return [head, ...(inOrder ? items : items.reverse())].join("\n") + "\n";
}

const params = (raw: Record<string, string>): RunParams => parseRunParams({ tab: "items", ...raw });
const keyOf = (r: ItemRow) => `${r.itemId}/${r.epoch}`;

const CASES = STORE_KINDS.flatMap((kind) =>
  [true, false].map((inOrder) => ({ kind, inOrder, name: kind.name, order: inOrder ? "in item order" : "out of item order" })),
);

describe.each(CASES)("item table signposts on $name, a run written $order", ({ kind, inOrder }) => {
  let store: Store;
  let drop: () => Promise<void>;
  let runId: number;
  let ctx: ReadContext;
  let run: RunAccess;
  beforeAll(async () => {
    ({ store, drop } = await kind.create());
    const r = await loadNative(store, "signposts.jsonl", [runFile(inOrder)]);
    expect(r.errors).toEqual([]);
    runId = (await store.prisma.run.findUniqueOrThrow({ where: { key: KEY } })).id;
    ctx = adminContext(store);
    run = await runAccess(ctx, KEY);
  });
  afterAll(async () => {
    await drop?.();
  });

  const signposts = (list: string) =>
    store.prisma.runSignpost.findMany({
      where: { runId, list },
      orderBy: { position: "asc" },
      select: { position: true, itemId: true, epoch: true },
    });

  it("stores every 256th key of each list, in item order", async () => {
    for (const [list, where] of [
      ["all", {}],
      ["failed", { firstCorrect: false }],
    ] as const) {
      const keys = await store.prisma.generation.findMany({
        where: { runId, ...where },
        orderBy: [{ itemId: "asc" }, { epoch: "asc" }],
        select: { itemId: true, epoch: true },
      });
      expect(keys.length, list).toBeGreaterThan(3 * SIGNPOST_EVERY);
      const expected = keys.flatMap((k, i) => (i % SIGNPOST_EVERY === 0 ? [{ position: i, ...k }] : []));
      expect(await signposts(list)).toEqual(expected);
    }
  });

  for (const filter of [{}, { failed: "1" }] as Record<string, string>[]) {
    for (const dir of ["asc", "desc"]) {
      it(`gives every typed page Prisma's slice: ${JSON.stringify(filter)} ${dir}`, async () => {
        const order = (await oracleItems(store, runId, params({ ...filter, dir }))).map(keyOf);
        for (const pageSize of [50, 97]) {
          const pageCount = Math.ceil(order.length / pageSize);
          for (let n = 1; n <= pageCount; n++) {
            const page = await getRunItems(ctx, run, params({ ...filter, dir, pageSize: String(pageSize), page: String(n) }));
            expect(page.total).toBe(order.length);
            expect(page.rows.map(keyOf), `page ${n} of ${pageSize}`).toEqual(order.slice((n - 1) * pageSize, n * pageSize));
          }
        }
      });
    }
  }

  // A search's pages in item order are found by one ordered read (SQLite) or by reading the run
  // in item-order windows of 256, 1,024, … rows (PostgreSQL, lib/queries/items.ts): texts whose
  // matches are spread over several windows, typed pages and Next from each.
  for (const q of ["S2 = 1", "<answer>1", "= 1"]) {
    for (const dir of ["asc", "desc"]) {
      it(`gives a search's typed pages and Next Prisma's slices: "${q}" ${dir}`, async () => {
        const order = (await oracleItems(store, runId, params({ q, dir }))).map(keyOf);
        expect(order.length).toBeGreaterThan(60);
        for (const n of [1, 2, 5, Math.ceil(order.length / 50)]) {
          const page = await getRunItems(ctx, run, params({ q, dir, pageSize: "50", page: String(n) }));
          const cap = (n + 5) * 50;
          expect(page.total, `page ${n} total`).toBe(Math.min(order.length, cap));
          expect(page.rows.map(keyOf), `page ${n}`).toEqual(order.slice((page.page - 1) * 50, page.page * 50));
          if (page.rows.length === 0 || !page.cursors) continue;
          const next = await getRunItems(
            ctx,
            run,
            params({ q, dir, pageSize: "50", page: String(page.page + 1), after: page.cursors.last }),
          );
          expect(next.rows.map(keyOf), `after page ${page.page}`).toEqual(order.slice(page.page * 50, page.page * 50 + 50));
        }
      });
    }
  }

  it("is what the migration's backfill writes for a stored run", async () => {
    const written = { all: await signposts("all"), failed: await signposts("failed") };
    await store.prisma.runSignpost.deleteMany({ where: { runId } });
    const dir = path.join("prisma/migrations", kind.name === "sqlite" ? "sqlite" : "postgres");
    const sql = fs.readFileSync(
      path.join(
        dir,
        fs.readdirSync(dir).find((f) => f.includes("run_signposts"))!,
      ),
      "utf8",
    );
    for (const statement of sql.split(";").filter((s) => s.includes("INSERT INTO"))) await store.prisma.$executeRawUnsafe(statement);
    expect({ all: await signposts("all"), failed: await signposts("failed") }).toEqual(written);
  });

  it("pages a run whose signposts are missing by OFFSET, with the same rows", async () => {
    const p = params({ failed: "1", page: "7" });
    const before = await getRunItems(ctx, run, p);
    await store.prisma.runSignpost.deleteMany({ where: { runId } });
    expect((await getRunItems(ctx, run, p)).rows).toEqual(before.rows);
    expect((await getRunItems(ctx, await runAccessWhile(store, KEY, "running"), p)).rows).toEqual(before.rows);
  });

  it("replaces a run's signposts with the run (a reload of the same key)", async () => {
    const again = await loadNative(store, "signposts.jsonl", [runFile(inOrder)]);
    expect(again.errors).toEqual([]);
    const id = (await store.prisma.run.findUniqueOrThrow({ where: { key: KEY } })).id;
    expect(await store.prisma.runSignpost.count({ where: { runId: id, list: "all" } })).toBe(Math.ceil(1500 / SIGNPOST_EVERY));
    expect(await store.prisma.runSignpost.count()).toBe(await store.prisma.runSignpost.count({ where: { runId: id } }));
  });
});
