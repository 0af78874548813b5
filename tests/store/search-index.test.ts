import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Store } from "../../lib/db";
import { loadNative } from "../../lib/store/load";
import { storedOutput } from "../../lib/store/output-text";
import { outputCandidates } from "../../lib/store/search-candidates";
import { indexPendingRuns } from "../../lib/store/search-index";
import { EXAMPLES } from "../helpers/fixtures";
import { STORE_KINDS } from "../helpers/stores";
import { searchIndexExact } from "../helpers/search-index";

// The query module is server-only; here it is exercised on a store directly.
vi.mock("server-only", () => ({}));

// The search index follows the load in a transaction of its own (lib/store/search-index.ts):
// until then the run is flagged and searched by a scan; afterwards the index holds exactly
// the run's rows, also after the run is replaced.
const FILE = "arith-small.jsonl";
const bytes = () => fs.readFileSync(path.join(EXAMPLES, FILE));
const flags = (store: Store) => store.prisma.run.findMany({ select: { id: true, searchIndexed: true }, orderBy: { id: "asc" } });

describe.each(STORE_KINDS)("search index after the load on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => ({ store, drop } = await kind.create()));
  afterAll(async () => drop?.());

  it("leaves a run flagged and unsearchable by index until indexed, then matches a scan", async () => {
    const report = await loadNative(store, FILE, [bytes()], { searchIndex: false });
    expect(report.ok).toBe(true);
    const runs = await flags(store);
    expect(runs.every((r) => !r.searchIndexed)).toBe(true);
    // not indexed: no candidates from the index, the caller scans
    expect(await outputCandidates(store, runs[0].id, "S3 = ")).toBeNull();
    const indexed = await indexPendingRuns(store.raw);
    expect(indexed).toBe(report.generations);
    expect((await flags(store)).every((r) => r.searchIndexed)).toBe(true);
    expect(await searchIndexExact(store)).toBe(true);
    for (const r of runs) {
      const rows = await store.prisma.generation.findMany({
        where: { runId: r.id },
        select: { id: true, output: true, outputDeflated: true },
      });
      const scan = rows.filter((g) => storedOutput(g.output, g.outputDeflated).includes("= 1"));
      const candidates = await outputCandidates(store, r.id, "= 1");
      expect(candidates, "few enough candidates to use the index").not.toBeNull();
      // candidates are the run's own, re-checked by the caller: they must cover the scan
      const covered = new Set(candidates);
      expect(scan.length).toBeGreaterThan(0);
      for (const s of scan) expect(covered.has(s.id)).toBe(true);
      const own = new Set(rows.map((g) => g.id));
      for (const id of covered) expect(own.has(id)).toBe(true);
    }
  });

  it("replaces an indexed run without leaving its old rows in the index", async () => {
    const report = await loadNative(store, FILE, [bytes()]); // indexes after commit by default
    expect(report.ok).toBe(true);
    expect((await flags(store)).every((r) => r.searchIndexed)).toBe(true);
    expect(await searchIndexExact(store)).toBe(true);
    // the replaced run's rows went with it: every row belongs to a run still there
    const [{ n: orphans }] = await store.prisma.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT COUNT(*) AS n FROM "SearchPosting" WHERE "runId" NOT IN (SELECT "id" FROM "Run")`,
    );
    expect(Number(orphans)).toBe(0);
  });
});
