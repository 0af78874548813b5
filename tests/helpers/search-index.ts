import type { Store } from "../../lib/db";
import { storedOutput } from "../../lib/store/output-text";
import { PostingBuilder } from "../../lib/store/posting-builder";
import type { PostingRow } from "../../lib/store/search-postings";

/**
 * Whether the search index (SearchPosting, lib/store/search-postings.ts) holds exactly the rows
 * a fresh build from the stored outputs of the runs flagged searchable gives, and nothing of any
 * other run.
 */
export async function searchIndexExact(store: Store): Promise<boolean> {
  return store.raw.transaction(async (tx) => {
    const key = (r: { runId: unknown; trigram: unknown; block: unknown; ids: Uint8Array }) =>
      `${Number(r.runId)}/${Number(r.trigram)}/${Number(r.block)}/${Buffer.from(r.ids).toString("hex")}`;
    const stored = (
      await tx.query<{ runId: number; trigram: number; block: number; ids: Uint8Array }>(
        `SELECT "runId", "trigram", "block", "ids" FROM "SearchPosting" ORDER BY "runId", "trigram", "block"`,
      )
    ).map(key);
    const wanted: string[] = [];
    const runs = await tx.query<{ id: number }>(`SELECT "id" FROM "Run" WHERE "searchIndexed" ORDER BY "id"`);
    for (const { id } of runs) {
      const builder = new PostingBuilder(Number(id));
      const rows: PostingRow[] = [];
      const gens = await tx.query<{ id: number; output: string; outputDeflated: Uint8Array | null }>(
        `SELECT "id", "output", "outputDeflated" FROM "Generation" WHERE "runId" = $1 ORDER BY "id"`,
        [id],
      );
      for (const g of gens) rows.push(...(builder.add(Number(g.id), storedOutput(g.output, g.outputDeflated)) ?? []));
      rows.push(...builder.take());
      wanted.push(...rows.map(([runId, trigram, block, ids]) => key({ runId, trigram, block, ids })));
    }
    wanted.sort();
    stored.sort();
    return stored.length === wanted.length && stored.every((s, i) => s === wanted[i]);
  });
}

/** `n` texts of `length` printable ASCII characters from a seeded LCG: ~35,000 distinct trigrams in 600 texts of 120. */
export function pseudoRandomTexts(seed: number, n: number, length: number): string[] {
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16;
  return Array.from({ length: n }, () => Array.from({ length }, () => String.fromCharCode(32 + (next() % 95))).join(""));
}
