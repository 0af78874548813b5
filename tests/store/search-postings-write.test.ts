import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { loadNative } from "../../lib/store/load";
import { postingCandidates } from "../../lib/store/search-candidates";
import { PostingBuilder } from "../../lib/store/posting-builder";
import { writeNewPostings, writePostings, type PostingRow } from "../../lib/store/search-postings";
import { trigramCodes } from "../../lib/store/search-terms";
import { EXAMPLES } from "../helpers/fixtures";
import { pseudoRandomTexts } from "../helpers/search-index";
import { STORE_KINDS } from "../helpers/stores";

// Rows of the search index written more than once for one key — a builder that filled up
// mid-block, or `stepwise run` adding one generation at a time to a block — are united by the
// store: SQLite in the statement (a function of ours), PostgreSQL by reading them back
// (lib/store/search-postings.ts). Either way the stored rows must hold every id written.

const BASE = 50_000 * 2048; // blocks far past the run's own generations

/** What the index must hold for generations (id, output): each "trigram/block" key's ids, ascending. */
function expectedIds(gens: [number, string][]): Map<string, number[]> {
  const want = new Map<string, number[]>();
  for (const [id, t] of [...gens].sort((a, b) => a[0] - b[0]))
    for (const code of trigramCodes(t)) {
      const key = `${code}/${Math.floor(id / 2048)}`;
      want.set(key, [...(want.get(key) ?? []), id]);
    }
  return want;
}

/** What the store's index holds for a run from block `from` on: each "trigram/block" key's ids. */
async function storedIds(store: Store, runId: number, from: number): Promise<Map<string, number[]>> {
  const rows = await store.raw.transaction((tx) =>
    tx.query<{ trigram: unknown; block: unknown; ids: Uint8Array }>(
      `SELECT "trigram", "block", "ids" FROM "SearchPosting" WHERE "runId" = $1 AND "block" >= $2`,
      [runId, from],
    ),
  );
  return new Map(
    rows.map((r) => [`${Number(r.trigram)}/${Number(r.block)}`, postingCandidates([{ block: r.block, ids: r.ids }], 1, 1e9)!]),
  );
}

describe.each(STORE_KINDS)("search index rows written in parts on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  let runId: number;
  beforeAll(async () => {
    ({ store, drop } = await kind.create());
    const report = await loadNative(store, "arith-small.jsonl", [fs.readFileSync(path.join(EXAMPLES, "arith-small.jsonl"))]);
    expect(report.ok).toBe(true);
    runId = (await store.prisma.run.findFirstOrThrow()).id;
  });
  afterAll(async () => drop?.());

  it("unites a block written in parts, in one transaction and in several", async () => {
    // ~35,000 distinct trigrams in a block: past the builder's 16,384, so it writes parts
    const gens = pseudoRandomTexts(7, 600, 120).map((t, k): [number, string] => [BASE + 1 + k * 5, t]);
    const builder = new PostingBuilder(runId);
    const parts: PostingRow[] = [];
    for (const [id, t] of gens) parts.push(...(builder.add(id, t) ?? []));
    parts.push(...builder.take());
    // and then one generation at a time, each in its own transaction, as `stepwise run` writes
    const single = pseudoRandomTexts(11, 20, 200).map((t, k): [number, string] => [BASE + 7 + k * 13, t]);
    await store.raw.transaction((tx) => writePostings(tx, parts));
    for (const [id, t] of single) {
      const one = new PostingBuilder(runId);
      one.add(id, t);
      await store.raw.transaction((tx) => writePostings(tx, one.take()));
    }
    const want = expectedIds([...gens, ...single]);
    const got = await storedIds(store, runId, BASE / 2048);
    expect(parts.length).toBeGreaterThan(got.size); // it did write parts
    expect(got.size).toBe(want.size);
    for (const [key, ids] of want) expect(got.get(key), key).toEqual(ids);
  });

  it("writes a load's rows as they are, and unites only the blocks the builder wrote in parts", async () => {
    const at = 60_000 * 2048;
    // block 0: past the builder's 16,384 trigrams (written in parts); blocks 1 and 2: whole
    const gens = [
      ...pseudoRandomTexts(5, 600, 120).map((t, k): [number, string] => [at + 1 + k * 3, t]),
      ...pseudoRandomTexts(9, 30, 200).map((t, k): [number, string] => [at + 2048 + k * 50, t]),
      ...pseudoRandomTexts(13, 30, 200).map((t, k): [number, string] => [at + 4096 + k * 7, t]),
    ];
    const builder = new PostingBuilder(runId);
    const rows: PostingRow[] = [];
    for (const [id, t] of gens) rows.push(...(builder.add(id, t) ?? []));
    rows.push(...builder.take());
    expect([...builder.splitBlocks]).toEqual([at / 2048]);
    await store.raw.transaction((tx) => writeNewPostings(tx, rows, builder.splitBlocks));
    const want = expectedIds(gens);
    const got = await storedIds(store, runId, at / 2048);
    expect(got.size).toBe(want.size);
    for (const [key, ids] of want) expect(got.get(key), key).toEqual(ids);
  });
});
