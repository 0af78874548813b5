import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Store } from "../../lib/db";
import { generateRun } from "../../lib/generate/dataset";
import { demoRunOptions } from "../../lib/generate/demo";
import { getLeaderboard, getLeaderboardFilterOptions } from "../../lib/queries/leaderboard";
import { loadNative } from "../../lib/store/load";
import { LEADERBOARD_SORTS, parseLeaderboardParams } from "../../lib/url/leaderboard";
import { EXAMPLES } from "../helpers/fixtures";
import { adminContext, STORE_KINDS } from "../helpers/stores";

// The leaderboard's grouping on a real store: demo runs hidden once real runs exist (and shown
// by ?demo=1), self-conditioning sweeps never ranked, default lengths that an import into
// another benchmark does not move, and the run search.

vi.mock("server-only", () => ({}));

const loadExample = (store: Store, name: string) => loadNative(store, name, fs.createReadStream(path.join(EXAMPLES, name)));

describe.each(STORE_KINDS)("leaderboard grouping on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  let board: (raw: Record<string, string>) => ReturnType<typeof getLeaderboard>;
  let options: () => ReturnType<typeof getLeaderboardFilterOptions>;
  // The demo's first variant: five simulated models on procedural-arith.
  const demo = demoRunOptions().slice(0, 5);
  beforeAll(async () => {
    ({ store, drop } = await kind.create());
    const text = demo
      .map((o) => {
        const { header, items } = generateRun(o);
        return [JSON.stringify(header), ...[...items()].map((i) => JSON.stringify(i))].join("\n") + "\n";
      })
      .join("");
    expect((await loadNative(store, "demo.jsonl", [text], { demo: true })).errors).toEqual([]);
    expect((await loadExample(store, "selfcond-small.jsonl")).errors).toEqual([]);
    const ctx = adminContext(store);
    board = (raw) => getLeaderboard(ctx, parseLeaderboardParams(raw));
    options = () => getLeaderboardFilterOptions(ctx, parseLeaderboardParams({}));
  });
  afterAll(async () => drop?.());

  it("shows demo runs while they are all there is, never self-conditioning sweeps", async () => {
    const b = await board({ benchmark: "procedural-arith" });
    expect(b.rows.map((r) => r.key).sort()).toEqual(demo.map((o) => o.runKey).sort());
    expect(b.rows.every((r) => r.demo && !r.selfConditioning)).toBe(true);
    expect(b.hiddenDemo).toBe(0);
    const o = await options();
    expect(o.benchmarks).toEqual(["procedural-arith"]);
    expect(o.sweeps).toBe(await store.prisma.run.count({ where: { selfConditioning: true } }));
    expect(o.sweeps).toBeGreaterThan(0);
    // Without a benchmark (the API) every benchmark's runs, still no sweeps.
    expect((await board({})).rows.some((r) => r.selfConditioning)).toBe(false);
  });

  it("hides demo runs once a real run exists; ?demo=1 shows them; the default lengths stay", async () => {
    const before = await board({ benchmark: "procedural-arith" });
    expect((await loadExample(store, "arith-small.jsonl")).errors).toEqual([]);
    const real = await store.prisma.run.findMany({ where: { benchmark: "procedural-arith", demo: false }, select: { key: true } });
    const hidden = await board({ benchmark: "procedural-arith" });
    expect(hidden.rows.map((r) => r.key).sort()).toEqual(real.map((r) => r.key).sort());
    expect(hidden.hiddenDemo).toBe(demo.length);
    const shown = await board({ benchmark: "procedural-arith", demo: "1" });
    expect(shown.total).toBe(real.length + demo.length);
    expect(shown.hiddenDemo).toBe(0);
    // Importing another benchmark does not move procedural-arith's columns.
    expect((await loadExample(store, "dictsum-small.jsonl")).errors).toEqual([]);
    expect((await board({ benchmark: "procedural-arith", demo: "1" })).at).toEqual(shown.at);
    expect(before.at.length).toBeGreaterThan(0);
    expect((await options()).benchmarks.slice(0, 2)).toEqual(["procedural-arith", "dict-sum"]);
  });

  it("searches model, key and variant literally, without re-ranking", async () => {
    const all = await board({ benchmark: "procedural-arith", demo: "1" });
    const target = all.rows.find((r) => r.demo)!;
    const found = await board({ benchmark: "procedural-arith", demo: "1", q: target.model.toUpperCase() });
    expect(found.rows.map((r) => r.key)).toContain(target.key);
    expect(found.rows.every((r) => `${r.key} ${r.model} ${r.variant}`.toLowerCase().includes(target.model.toLowerCase()))).toBe(true);
    expect(found.total).toBe(found.rows.length);
    // A found run keeps the rank it has on the whole board.
    for (const r of found.rows) expect(r.rank).toBe(all.rows.find((a) => a.key === r.key)!.rank);
    expect((await board({ benchmark: "procedural-arith", demo: "1", q: "__demo" })).total).toBe(demo.length);
    expect((await board({ benchmark: "procedural-arith", demo: "1", q: "%" })).total).toBe(0);
    expect((await board({ benchmark: "procedural-arith", demo: "1", q: "_" })).total).toBe(all.total);
  });

  it("sorts by every column either way (runs without a value last), filters on model and variant, and pages", async () => {
    const stored = await store.prisma.run.findMany({
      where: { selfConditioning: false },
      include: { model: true, variant: true, lengthStats: true },
    });
    expect(stored.length).toBeGreaterThan(6);
    const keys = (b: Awaited<ReturnType<typeof getLeaderboard>>) => b.rows.map((r) => r.key);
    const NUMERIC = { size: (r: (typeof stored)[number]) => r.model.paramsB, items: (r: (typeof stored)[number]) => r.itemCount } as Record<
      string,
      (r: (typeof stored)[number]) => number | null
    >;
    for (const sort of LEADERBOARD_SORTS) {
      for (const dir of ["asc", "desc"] as const) {
        const got = keys(await board({ demo: "1", sort, dir, pageSize: "200" }));
        let want: string[];
        if (sort === "model" || sort === "benchmark" || sort === "variant") {
          // text follows the store's own collation: Prisma's ordering of the same runs
          const head = sort === "model" ? { model: { name: dir } } : sort === "variant" ? { variant: { name: dir } } : { benchmark: dir };
          want = (
            await store.prisma.run.findMany({ where: { selfConditioning: false }, orderBy: [head, { key: "asc" }], select: { key: true } })
          ).map((r) => r.key);
        } else {
          const value = NUMERIC[sort] ?? ((r: (typeof stored)[number]) => r[sort as "h50"]);
          const sign = dir === "asc" ? 1 : -1;
          want = [...stored]
            .sort((a, b) => {
              const [x, y] = [value(a), value(b)];
              if (x === null || y === null) return x === y ? (a.key < b.key ? -1 : 1) : x === null ? 1 : -1;
              // H_0.5 breaks ties by its CI's lower bound, as the leader is chosen
              const lower = sort === "h50" ? sign * ((a.h50Lo ?? x) - (b.h50Lo ?? y)) : 0;
              return sign * (x - y) || lower || (a.key < b.key ? -1 : 1);
            })
            .map((r) => r.key);
        }
        expect(got, `${sort} ${dir}`).toEqual(want);
      }
    }
    // accuracy at a length: not a column; runs without the length last, ties in load order
    const length = stored[0].lengthStats[0].length;
    const acc = (r: (typeof stored)[number]) => {
      const s = r.lengthStats.find((x) => x.length === length);
      return s && s.n ? s.firstCorrect / s.n : null;
    };
    const byAcc = [...stored]
      .sort((a, b) => {
        const [x, y] = [acc(a), acc(b)];
        return x === null ? (y === null ? a.id - b.id : 1) : y === null ? -1 : y - x || a.id - b.id;
      })
      .map((r) => r.key);
    expect(keys(await board({ demo: "1", sort: `at:${length}`, pageSize: "200" }))).toEqual(byAcc);
    // pages of 5 put together are the whole board, in order
    const whole = keys(await board({ demo: "1", pageSize: "200" }));
    const paged: string[] = [];
    for (let page = 1; paged.length < whole.length; page++)
      paged.push(...keys(await board({ demo: "1", pageSize: "5", page: String(page) })));
    expect(paged).toEqual(whole);
    const pagedByAcc: string[] = [];
    for (let page = 1; pagedByAcc.length < byAcc.length; page++)
      pagedByAcc.push(...keys(await board({ demo: "1", sort: `at:${length}`, pageSize: "5", page: String(page) })));
    expect(pagedByAcc).toEqual(byAcc);

    // filters, against the stored model and variant of each run
    const filtered = async (raw: Record<string, string>, keep: (r: (typeof stored)[number]) => boolean) => {
      const want = stored.filter(keep).map((r) => r.key);
      expect(keys(await board({ demo: "1", pageSize: "200", ...raw })).sort(), JSON.stringify(raw)).toEqual(want.sort());
      return want.length;
    };
    const family = stored.find((r) => r.model.family)?.model.family;
    const sizes = stored.map((r) => r.model.paramsB).filter((x): x is number => x !== null);
    const variant = stored[stored.length - 1].variant.name;
    let narrowed = 0;
    if (family) narrowed += Number((await filtered({ family }, (r) => r.model.family === family)) < stored.length);
    for (const thinking of ["yes", "no"]) await filtered({ thinking }, (r) => r.model.thinking === (thinking === "yes"));
    if (sizes.length) {
      const mid = [...sizes].sort((a, b) => a - b)[Math.floor(sizes.length / 2)];
      await filtered({ minSize: String(mid) }, (r) => r.model.paramsB !== null && r.model.paramsB >= mid);
      await filtered({ maxSize: String(mid) }, (r) => r.model.paramsB !== null && r.model.paramsB <= mid);
    }
    narrowed += Number((await filtered({ variant }, (r) => r.variant.name === variant)) < stored.length);
    expect(narrowed).toBeGreaterThan(0);
    const o = await getLeaderboardFilterOptions(adminContext(store), parseLeaderboardParams({ demo: "1" }));
    expect(o.families).toEqual([...new Set(stored.map((r) => r.model.family).filter(Boolean))].sort());
    expect(o.sizes).toEqual([...new Set(sizes)].sort((a, b) => a - b));
    expect(o.variants.map((v) => v.name).sort()).toEqual([...new Set(stored.map((r) => r.variant.name))].sort());
  });
});
