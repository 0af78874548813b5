import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Store } from "../../lib/db";
import { generateRun } from "../../lib/generate/dataset";
import { demoRunOptions } from "../../lib/generate/demo";
import { getLeaderboard, getLeaderboardFilterOptions } from "../../lib/queries/leaderboard";
import { loadNative } from "../../lib/store/load";
import { parseLeaderboardParams } from "../../lib/url/leaderboard";
import { EXAMPLES } from "../helpers/shared-data";
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
});
