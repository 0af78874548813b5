import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { RunAccess } from "../../lib/auth/run-access";
import type { Store } from "../../lib/db";
import type { ReadContext } from "../../lib/read-context";
import { FAILURE_MODES } from "../../lib/analysis/types";
import { getAllRunItems, getRunItems, type ItemPage } from "../../lib/queries/items";
import { getRunSummary } from "../../lib/queries/runs";

import { loadNative } from "../../lib/store/load";
import { parseRunParams, type RunParams } from "../../lib/url/run";
import { oracleItems } from "../helpers/item-oracle";
import { EXAMPLES } from "../helpers/fixtures";
import { adminContext, runAccess, runAccessWhile, STORE_KINDS, type StoreKind } from "../helpers/stores";

// The item table's Previous / Next links carry keyset cursors (lib/queries/items.ts). Walking
// a run by them must show exactly the pages that OFFSET paging shows, in both directions, for
// both orders and with filters, also when an item has several epochs.

vi.mock("server-only", () => ({}));

const all = fs.readFileSync(path.join(EXAMPLES, "arith-small.jsonl"), "utf8").trim().split("\n");
const next = all.findIndex((l, i) => i > 0 && l.includes('"type":"run"'));
const lines = all.slice(0, next);
const header = JSON.parse(lines[0]) as { key: string; config: Record<string, unknown> };

/** The first run of arith-small with every item `epochs` times, epoch 1 after all epoch 0s. */
function withEpochs(epochs = 2): string {
  const out = [JSON.stringify({ ...header, config: { ...header.config, epochs } })];
  for (let epoch = 0; epoch < epochs; epoch++) for (const l of lines.slice(1)) out.push(JSON.stringify({ ...JSON.parse(l), epoch }));
  return out.join("\n") + "\n";
}

/** A fresh store holding that run with `epochs` epochs, and what the tests read it with. */
async function loaded(kind: StoreKind, epochs: number) {
  const { store, drop } = await kind.create();
  expect((await loadNative(store, "epochs.jsonl", [withEpochs(epochs)])).errors).toEqual([]);
  const runId = (await store.prisma.run.findUniqueOrThrow({ where: { key: header.key } })).id;
  const ctx = adminContext(store);
  return { store, drop, runId, ctx, run: await runAccess(ctx, header.key) };
}

const keysOf = (p: ItemPage) => p.rows.map((r) => `${r.itemId}/${r.epoch}`);
const params = (raw: Record<string, string>): RunParams => parseRunParams({ tab: "items", pageSize: "10", ...raw });

describe.each(STORE_KINDS)("item table keyset paging on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  let runId: number;
  let ctx: ReadContext;
  let run: RunAccess;
  beforeAll(async () => {
    ({ store, drop, runId, ctx, run } = await loaded(kind, 2));
  });
  afterAll(async () => {
    await drop?.();
  });

  for (const filter of [{}, { failed: "1" }, { minLen: "15" }, { q: "= 1" }, { q: "answer" }] as Record<string, string>[]) {
    for (const dir of ["asc", "desc"]) {
      it(`matches OFFSET pages forward and back: ${JSON.stringify(filter)} ${dir}`, async () => {
        const base = { ...filter, dir };
        const first = await getRunItems(ctx, run, params(base));
        expect(first.pageCount).toBeGreaterThanOrEqual(2);
        const offsetPages: string[][] = [];
        for (let n = 1; n <= first.pageCount; n++)
          offsetPages.push(keysOf(await getRunItems(ctx, run, params({ ...base, page: String(n) }))));
        expect(new Set(offsetPages.flat()).size).toBe(first.total); // every generation once

        let page = first;
        for (let n = 2; n <= first.pageCount; n++) {
          page = await getRunItems(ctx, run, params({ ...base, page: String(n), after: page.cursors!.last }));
          expect(keysOf(page), `page ${n} by Next`).toEqual(offsetPages[n - 1]);
        }
        for (let n = first.pageCount - 1; n >= 2; n--) {
          page = await getRunItems(ctx, run, params({ ...base, page: String(n), before: page.cursors!.first }));
          expect(keysOf(page), `page ${n} by Previous`).toEqual(offsetPages[n - 1]);
        }
      });
    }
  }

  it("reads every page's rows (one SQL statement) exactly as Prisma maps them", async () => {
    const expected = await oracleItems(store, runId, params({}));
    const paged: ItemPage["rows"] = [];
    for (let n = 1; ; n++) {
      const page = await getRunItems(ctx, run, params({ page: String(n) }));
      paged.push(...page.rows);
      if (n >= page.pageCount) break;
    }
    expect(paged).toEqual(expected);
    expect(await getAllRunItems(ctx, run, params({}), 1000)).toEqual(expected);
    expect(paged.some((r) => !r.firstCorrect) && paged.some((r) => r.firstDivergence !== null)).toBe(true);
  });

  // Every filter and sort of the table in SQL (lib/queries/item-sql.ts) against Prisma's where
  // and orderBy: the export whole, the first two pages, and the total (stored or counted).
  const FILTERS: Record<string, string>[] = [
    {},
    { failed: "1" },
    ...FAILURE_MODES.map((mode) => ({ mode })),
    { failed: "1", mode: "premature-answer" },
    { kind: "slip" },
    { kind: "propagated" },
    { minLen: "10", maxLen: "25" },
    { div: "none" },
    { div: "3" },
    { div: "2-6" },
    { q: "= 1" },
    { q: "S" },
    { q: "s" },
    { q: "%" },
    { q: "_" },
    { q: "\\" },
    { q: "1%" },
    { q: "zzqq" },
    { q: "An" },
  ];
  for (const filter of FILTERS) {
    it(`filters as Prisma does: ${JSON.stringify(filter)}`, async () => {
      for (const sort of ["order", "item", "length", "divergence", "correct"]) {
        for (const dir of ["asc", "desc"]) {
          const p = params({ ...filter, sort, dir });
          const expected = await oracleItems(store, runId, p);
          expect(await getAllRunItems(ctx, run, p, 1000), `${sort} ${dir}`).toEqual(expected);
          for (const page of [1, 2]) {
            const got = await getRunItems(ctx, run, params({ ...filter, sort, dir, page: String(page) }));
            expect(got.total, `${sort} ${dir} total`).toBe(expected.length);
            if (page <= got.pageCount) expect(got.rows, `${sort} ${dir} page ${page}`).toEqual(expected.slice((page - 1) * 10, page * 10));
          }
        }
      }
      const running = await getRunItems(ctx, await runAccessWhile(store, header.key, "running"), params(filter));
      expect(running.total).toBe((await oracleItems(store, runId, params(filter))).length);
    });
  }

  it("lists the run's lengths and knows which runs exist", async () => {
    const all = await oracleItems(store, runId, params({}));
    expect((await getRunItems(ctx, run, params({}))).lengths).toEqual([...new Set(all.map((r) => r.length))].sort((a, b) => a - b));
    expect((await RunAccess.check(ctx, header.key)).ok).toBe(true);
    expect(await RunAccess.check(ctx, header.key + "-nope")).toEqual({ ok: false, refusal: "not-found" });
  });

  it("reads the run's summary by SQL as Prisma reads the row", async () => {
    const row = await store.prisma.run.findUniqueOrThrow({ where: { key: header.key }, include: { model: true, variant: true } });
    const s = (await getRunSummary(ctx, run))!;
    expect(s).toMatchObject({
      id: row.id,
      key: row.key,
      benchmark: row.benchmark,
      variant: row.variant.name,
      status: row.status,
      items: row.itemCount,
      generations: row.generationCount,
      expectedItems: row.expectedItems,
      maxLength: row.maxLength,
      hasSteps: row.hasSteps,
      selfConditioning: row.selfConditioning,
      createdAt: row.createdAt,
      loadedAt: row.loadedAt.toISOString(),
      model: { name: row.model.name, family: row.model.family, paramsB: row.model.paramsB, thinking: row.model.thinking },
      config: JSON.parse(row.config),
    });
    expect(s.metrics).toEqual(JSON.parse(row.metrics));
    expect(s.extras).toEqual(JSON.parse(row.extras));
    expect(s.generations).toBe(2 * s.items);
  });

  it.runIf(kind.name === "postgres")(
    "keeps parallel workers for scans that pay for them (parallel_setup_cost on every connection)",
    async () => {
      const [row] = await store.prisma.$queryRawUnsafe<{ parallel_setup_cost: string }[]>("SHOW parallel_setup_cost");
      expect(row.parallel_setup_cost).toBe("20000");
    },
  );

  it("gives no cursors to sorts other than item order (they page by OFFSET)", async () => {
    const p = await getRunItems(ctx, run, params({ sort: "length" }));
    expect(p.rows.length).toBe(10);
    expect(p.cursors).toBeNull();
  });
});

// A search's count stops five pages past the page shown (lib/queries/item-count.ts); in item
// order one scan gives both the count and the page (lib/queries/items.ts, searchPage). With
// more matches than that cap, the total is the cap, `more` is set and every page is still
// the oracle's slice.
describe.each(STORE_KINDS)("a search's capped count on $name", (kind) => {
  let f: Awaited<ReturnType<typeof loaded>>;
  beforeAll(async () => void (f = await loaded(kind, 6)));
  afterAll(async () => f?.drop());

  it("a search with no match: an empty first page, no cursors, nothing more", async () => {
    for (const q of ["zzqq", "⁂"]) {
      const got = await getRunItems(f.ctx, f.run, params({ q }));
      expect({ rows: got.rows, total: got.total, more: got.more, page: got.page, cursors: got.cursors }).toEqual({
        rows: [],
        total: 0,
        more: false,
        page: 1,
        cursors: null,
      });
    }
  });

  for (const q of ["=", "answer"]) {
    for (const dir of ["asc", "desc"]) {
      it(`"${q}" ${dir}: total capped at five pages past the page, pages are the oracle's slices`, async () => {
        const expected = await oracleItems(f.store, f.runId, params({ q, dir }));
        expect(expected.length).toBeGreaterThan(60); // more than page 1's cap (6 pages of 10)
        // and the page whose cap the matches fill exactly, when there is one ("=": 120, page 7)
        const exact = expected.length % 10 === 0 ? [expected.length / 10 - 5] : [];
        if (q === "=") expect(exact).toEqual([7]);
        for (const n of [1, 2, 4, ...exact, 20]) {
          const got = await getRunItems(f.ctx, f.run, params({ q, dir, page: String(n) }));
          const cap = (n + 5) * 10;
          expect(got.total, `page ${n} total`).toBe(Math.min(expected.length, cap));
          expect(got.more, `page ${n} more`).toBe(expected.length > cap);
          expect(got.page).toBe(Math.min(n, Math.ceil(got.total / 10)));
          expect(got.rows, `page ${n} rows`).toEqual(expected.slice((got.page - 1) * 10, got.page * 10));
          const last = got.rows[got.rows.length - 1];
          expect(got.cursors?.last).toBeDefined();
          // Next from this page's cursor shows the oracle's following slice.
          const following = await getRunItems(f.ctx, f.run, params({ q, dir, page: String(got.page + 1), after: got.cursors!.last }));
          expect(following.rows, `after page ${got.page} (${last.itemId})`).toEqual(expected.slice(got.page * 10, got.page * 10 + 10));
        }
      });
    }
  }
});

// PostgreSQL reads a search in item order in windows sized from the matches so far
// (lib/queries/item-sql.ts, nextWindow). With 600 generations, texts whose trigrams most outputs
// hold ("S6 = -", "S15 = 0") read past the first window, with no match yet or a few; pages and
// counts are the oracle's on both stores.
describe.each(STORE_KINDS)("a search over several windows on $name", (kind) => {
  let f: Awaited<ReturnType<typeof loaded>>;
  beforeAll(async () => void (f = await loaded(kind, 30)));
  afterAll(async () => f?.drop());

  for (const q of ["=", "An", "S6 = -", "S15 = 0"]) {
    it(`"${q}": page 1, page 9 and the page after it are the oracle's slices`, async () => {
      const expected = await oracleItems(f.store, f.runId, params({ q }));
      expect(expected.length).toBeGreaterThan(0);
      for (const n of [1, 9]) {
        const got = await getRunItems(f.ctx, f.run, params({ q, page: String(n) }));
        expect(got.total, `page ${n} total`).toBe(Math.min(expected.length, (n + 5) * 10));
        expect(got.rows, `page ${n} rows`).toEqual(expected.slice((got.page - 1) * 10, got.page * 10));
        if (got.rows.length === 0) continue;
        const following = await getRunItems(f.ctx, f.run, params({ q, page: String(got.page + 1), after: got.cursors!.last }));
        expect(following.rows, `after page ${got.page}`).toEqual(expected.slice(got.page * 10, got.page * 10 + 10));
      }
    });
  }
});
