import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Store } from "../../lib/db";
import { listMigrations } from "../../lib/store/migrate";
import { storedOutput } from "../../lib/store/output-text";
import { outputCandidates } from "../../lib/store/search-candidates";
import { upgradedStore } from "../helpers/old-store";
import { searchIndexExact } from "../helpers/search-index";
import { STORE_KINDS } from "../helpers/stores";

vi.mock("server-only", () => ({}));

// Migration 0018 on a store made by the previous version (migrations up to 0017; on SQLite its
// search index FTS5 with each output's trigram words, on PostgreSQL pg_trgm's index, which 0019
// replaces there): afterwards the index holds exactly what today's writer puts there for the
// same runs, the old index is gone, and searches find what a scan finds.
const FILES = ["arith-small.jsonl", "dictsum-small.jsonl", "selfcond-small.jsonl", "generic-small.jsonl"];
const QUERIES = ["= 1", "S3 = ", "answer", "ANSWER>", "zzqq", "<answer>1"];

describe.each(STORE_KINDS)("migration 0018 (the search index as postings) on $name", (kind) => {
  let upgraded: Store;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ upgraded, drop } = await upgradedStore(kind, {
      migration: "0018",
      files: FILES,
      // the previous writer indexed each searchable run's outputs as trigram words
      after: async (_src, dst) => {
        if (dst.provider !== "sqlite") return;
        await dst.exec(
          `INSERT INTO "GenerationFts"(rowid, "terms") SELECT g."id", stepwise_search_terms(g."runId", stepwise_output(g."output", g."outputDeflated"))
           FROM "Generation" g JOIN "Run" r ON r."id" = g."runId" WHERE r."searchIndexed"`,
        );
      },
    })); // opened: 0018 applied
  }, 120_000);
  afterAll(async () => drop?.());

  it("applies every migration and indexes the searchable runs as today's writer does", async () => {
    const applied = await upgraded.raw.transaction((tx) => tx.query<{ name: string }>(`SELECT "name" FROM "_stepwise_migrations"`));
    expect(applied.map((r) => r.name)).toEqual(listMigrations(kind.name).map((m) => m.name));
    expect(await searchIndexExact(upgraded)).toBe(true);
    const [{ n }] = await upgraded.raw.transaction((tx) => tx.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "SearchPosting"`));
    expect(Number(n)).toBeGreaterThan(100);
    if (kind.name !== "sqlite") {
      // PostgreSQL's migration 0019 replaced pg_trgm's index with the same postings
      const trgm = await upgraded.raw.transaction((tx) =>
        tx.query(`SELECT 1 FROM pg_indexes WHERE "indexname" = 'Generation_output_trgm_idx'`),
      );
      expect(trgm).toEqual([]);
      return;
    }
    const left = await upgraded.raw.transaction((tx) =>
      tx.query(`SELECT "name" FROM sqlite_master WHERE "name" LIKE 'GenerationFts%' OR "name" = 'Generation_fts_delete'`),
    );
    expect(left).toEqual([]);
  });

  it("finds, among each run's candidates, every output a scan finds, and only the run's", async () => {
    const runs = await upgraded.prisma.run.findMany({ select: { id: true } });
    expect(runs.length).toBeGreaterThanOrEqual(FILES.length);
    for (const r of runs) {
      const rows = await upgraded.prisma.generation.findMany({
        where: { runId: r.id },
        select: { id: true, output: true, outputDeflated: true },
      });
      const ids = new Set(rows.map((g) => g.id));
      for (const q of QUERIES) {
        const candidates = await outputCandidates(upgraded, r.id, q);
        expect(candidates, q).not.toBeNull();
        const got = new Set(candidates);
        for (const id of got) expect(ids.has(id)).toBe(true);
        const fold = (t: string) => t.replace(/[A-Z]/g, (c) => c.toLowerCase());
        for (const g of rows)
          if (fold(storedOutput(g.output, g.outputDeflated)).includes(fold(q))) expect(got.has(g.id), `${q} in ${g.id}`).toBe(true);
      }
    }
  });
});
