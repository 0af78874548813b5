import Database from "better-sqlite3";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RawTx } from "../../lib/store/raw";
import { postingCandidates, windowedCandidates } from "../../lib/store/search-candidates";
import { PostingBuilder } from "../../lib/store/posting-builder";
import { registerPostingsFunction, writePostings, type PostingRow } from "../../lib/store/search-postings";
import { queryTrigrams, trigramCodes } from "../../lib/store/search-terms";
import { pseudoRandomTexts } from "../helpers/search-index";

// The search index holds, for each run, trigram and block of 2,048 generation ids, which of the
// block's generations hold the trigram; a search asks for the generations holding every trigram
// of its text. Whatever the texts, every generation that contains the searched text (ignoring
// the case of ASCII letters) must be among the candidates: they are re-checked exactly, but a
// generation missing from them would never be found.

const flipAsciiCase = (s: string, mask: number) =>
  Array.from(s, (c, i) =>
    /[a-z]/i.test(c) && (mask >> (i % 30)) & 1 ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c,
  ).join("");

// Text the way outputs look, and any UTF-16 at all (lone surrogates included).
const arithText = fc
  .array(fc.constantFrom("S1", " = ", "12.5", " + ", " ÷ ", " × ", "\n", "<answer>", "Step", "é", "😀", "ab", "Z"), {
    maxLength: 80,
  })
  .map((parts) => parts.join(""));
const anyText = fc.oneof(arithText, fc.string({ unit: "binary", maxLength: 300 }), fc.string({ maxLength: 300 }));

/** The index's rows as a SQLite store holds them once written (rows of one key written twice united). */
async function stored(rows: PostingRow[]): Promise<PostingRow[]> {
  const db = new Database(":memory:");
  registerPostingsFunction(db);
  db.exec(
    `CREATE TABLE "SearchPosting" ("runId" INTEGER, "trigram" INTEGER, "block" INTEGER, "ids" BLOB, PRIMARY KEY ("runId", "block", "trigram")) WITHOUT ROWID`,
  );
  const tx = {
    provider: "sqlite",
    exec: async (sql: string, params: unknown[]) => db.prepare(sql.replace(/\$\d+/g, "?")).run(...params).changes,
  } as unknown as RawTx;
  await writePostings(tx, rows);
  const out = db.prepare(`SELECT * FROM "SearchPosting" ORDER BY "runId", "trigram", "block"`).raw().all() as PostingRow[];
  db.close();
  return out;
}

/** Every row a builder gives for generations [id, text], in the order given. */
function build(runId: number, gens: [number, string][]): PostingRow[] {
  const builder = new PostingBuilder(runId);
  const rows: PostingRow[] = [];
  for (const [id, text] of gens) rows.push(...(builder.add(id, text) ?? []));
  rows.push(...builder.take());
  return rows;
}

/** The search's candidates among stored rows, as dialect.ts asks for them. */
function candidates(rows: PostingRow[], runId: number, q: string, cap = 1e9): number[] | null {
  const trigrams = queryTrigrams(q);
  if (trigrams === null) return null;
  const asked = rows.filter((r) => r[0] === runId && trigrams.includes(r[1])).map((r) => ({ block: r[2], ids: r[3] }));
  return postingCandidates(asked, trigrams.length, cap);
}

describe("search index", () => {
  it("finds every generation that holds a text of three units or more, whatever the ASCII case", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(anyText, { minLength: 1, maxLength: 12 }),
        fc.nat({ max: 5000 }),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.integer(),
        async (texts, firstId, pick, i, len, mask) => {
          const gens = texts.map((t, k): [number, string] => [firstId + k * 700 + 1, t]);
          const rows = await stored(build(3, gens));
          const text = texts[pick % texts.length];
          const from = text.length ? i % text.length : 0;
          const q = flipAsciiCase(text.slice(from, from + 3 + (len % 40)), mask);
          const found = candidates(rows, 3, q);
          if (q.length < 3) {
            expect(found).toBeNull();
            return;
          }
          const fold = (t: string) => t.replace(/[A-Z]/g, (c) => c.toLowerCase());
          for (const [id, t] of gens) if (fold(t).includes(fold(q))) expect(found, `${JSON.stringify(q)} in ${id}`).toContain(id);
          expect(candidates(rows, 4, q) ?? []).toEqual([]); // another run's rows are never candidates
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("holds exactly each output's distinct trigrams, block by block, however the builder's rows were split", async () => {
    // pseudo-random ASCII: ~35,000 distinct trigrams in a block, past the builder's 16,384, so it writes parts that the store unites
    const texts = pseudoRandomTexts(7, 600, 120);
    const gens = texts.map((t, k): [number, string] => [1 + k * 5, t]); // ids 1…2996: two blocks
    const parts = build(9, gens);
    const rows = await stored(parts);
    expect(parts.length).toBeGreaterThan(rows.length); // it did write parts
    const want = new Map<string, number[]>();
    for (const [id, t] of gens)
      for (const code of trigramCodes(t)) {
        const key = `${code}/${Math.floor(id / 2048)}`;
        want.set(key, [...(want.get(key) ?? []), id]);
      }
    const got = new Map(rows.map((r) => [`${r[1]}/${r[2]}`, postingCandidates([{ block: r[2], ids: r[3] }], 1, 1e9)!]));
    expect(got.size).toBe(want.size);
    for (const [key, ids] of want) expect(got.get(key), key).toEqual(ids);
  });

  it("gives the same rows from builders used at once as from each alone (their tables are lent between them)", () => {
    // two runs loaded at once on one thread (the server), and one-generation builders (`stepwise run`) in between
    const a = pseudoRandomTexts(3, 400, 120).map((t, k): [number, string] => [1 + k * 11, t]); // past 16,384 trigrams in a block
    const b = pseudoRandomTexts(4, 300, 80).map((t, k): [number, string] => [2040 + k, t]);
    const alone = [build(1, a), build(2, b)];
    const singlesAlone = a.map(([, t], k) => build(3, [[k, t]]));
    const ba = new PostingBuilder(1);
    const bb = new PostingBuilder(2);
    const together: PostingRow[][] = [[], []];
    const singles: PostingRow[][] = [];
    for (let k = 0; k < Math.max(a.length, b.length); k++) {
      if (k < a.length) {
        together[0].push(...(ba.add(...a[k]) ?? []));
        singles.push(build(3, [[k, a[k][1]]]));
      }
      if (k < b.length) together[1].push(...(bb.add(...b[k]) ?? []));
    }
    together[0].push(...ba.take());
    together[1].push(...bb.take());
    expect(together).toEqual(alone);
    expect(singles).toEqual(singlesAlone);
  });

  it("writes a trigram's block as a list of gaps or a bitset, whichever is smaller", async () => {
    const sparse = await stored(
      build(1, [
        [5, "abc"],
        [300, "abc"],
        [2047, "abc"],
      ]),
    );
    expect([...sparse[0][3]]).toEqual([0, 5, 0x80 | (294 & 0x7f), 294 >> 7, 0x80 | (1746 & 0x7f), 1746 >> 7]);
    const dense = await stored(
      build(
        1,
        Array.from({ length: 2048 }, (_, k): [number, string] => [2048 + k, "xyz"]),
      ),
    );
    expect(dense[0][2]).toBe(1);
    expect(dense[0][3].length).toBe(257);
    expect(postingCandidates([{ block: 1, ids: dense[0][3] }], 1, 5000)).toEqual(Array.from({ length: 2048 }, (_, k) => 2048 + k));
    expect(postingCandidates([{ block: 1, ids: dense[0][3] }], 1, 900)).toBeNull(); // more than the cap
  });

  it("writes exactly the smaller of the two forms, for any positions in a block", () => {
    // the format written plainly: gaps (one byte under 128, else two, low 7 bits first) unless
    // they take more than the 256-byte bitset, whose byte i holds positions 8i…8i + 7
    const oracle = (positions: number[]) => {
      const gaps = [0];
      let prev = -1;
      for (const p of positions) {
        const gap = p - prev - 1;
        gaps.push(...(gap < 128 ? [gap] : [0x80 | (gap & 0x7f), gap >> 7]));
        prev = p;
      }
      if (gaps.length <= 257) return gaps;
      const bitset = [1, ...new Array<number>(256).fill(0)];
      for (const p of positions) bitset[1 + (p >> 3)] |= 1 << (p & 7);
      return bitset;
    };
    const check = (positions: number[], block: number) => {
      const builder = new PostingBuilder(1);
      for (const p of positions) expect(builder.add(block * 2048 + p, "abc")).toEqual(positions[0] === p ? [] : null);
      const rows = builder.take();
      if (positions.length === 0) expect(rows).toEqual([]);
      else expect(rows.map((r) => [...r[3]])).toEqual([oracle(positions)]);
    };
    // any density, from a few positions to the whole block
    const positionsOf = fc
      .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer())
      .map(([density, seed]) =>
        Array.from({ length: 2048 }, (_, p) => p).filter((p) => ((Math.imul(p + 1, 0x9e3779b1) ^ seed) >>> 0) / 2 ** 32 < density),
      );
    fc.assert(
      fc.property(
        fc.oneof(
          positionsOf,
          fc.uniqueArray(fc.integer({ min: 0, max: 2047 })).map((a) => a.sort((x, y) => x - y)),
        ),
        fc.integer({ min: 0, max: 3 }),
        check,
      ),
      {
        numRuns: 300,
      },
    );
    // at the edge: 256 one-byte gaps are the 257 bytes of the bitset (gaps kept), 257 are one more
    const first = (n: number) => Array.from({ length: n }, (_, p) => p);
    check(first(256), 2);
    expect(oracle(first(256))[0]).toBe(0);
    check(first(257), 2);
    expect(oracle(first(257))[0]).toBe(1);
  });

  it("reads the index a window of blocks at a time, to the same candidates, and stops once past the cap", async () => {
    // 40 blocks; "abc" in every generation of blocks 0–9, "xyz" in one generation per block
    const gens: [number, string][] = [];
    for (let id = 0; id < 40 * 2048; id += 7) gens.push([id, (id < 10 * 2048 ? "abc " : "") + (id % 2048 < 7 ? "xyz" : "")]);
    const rows = await stored(build(2, gens));
    let reads = 0;
    const find = (q: string, cap: number) => {
      const trigrams = queryTrigrams(q)!;
      const mine = rows.filter((r) => trigrams.includes(r[1]));
      return windowedCandidates(0, 39, trigrams.length, cap, async (from, to) => {
        reads++;
        return mine.filter((r) => r[2] >= from && r[2] <= to).map((r) => ({ block: r[2], ids: r[3] }));
      });
    };
    const everywhere = (q: string) => candidates(rows, 2, q);
    expect(await find("xyz", 900)).toEqual(everywhere("xyz"));
    expect((await find("xyz", 900))!.length).toBe(40);
    expect(reads).toBeGreaterThan(2);
    reads = 0;
    expect(await find("abc", 900)).toBeNull(); // ~2,900 holders: past the cap in the first window
    expect(reads).toBe(1);
    expect(await find("abc", 5000)).toEqual(everywhere("abc"));
  });

  it("refuses a damaged value rather than guess", () => {
    expect(() => postingCandidates([{ block: 0, ids: Uint8Array.of(7, 1) }], 1, 10)).toThrow(/damaged/);
    expect(() => postingCandidates([{ block: 0, ids: Uint8Array.of(0, 0x81) }], 1, 10)).toThrow(/damaged/);
    expect(() => postingCandidates([{ block: 0, ids: Uint8Array.of(0, 0xff, 0x7f) }], 1, 10)).toThrow(/damaged/);
  });

  it("gives each text's distinct trigrams in order of first appearance, texts with thousands of them included", () => {
    // the trigram of each three-unit window alone, and a Set: independent of how a whole text's are gathered
    const naive = (text: string) => [
      ...new Set(Array.from({ length: Math.max(0, text.length - 2) }, (_, i) => trigramCodes(text.slice(i, i + 3))[0])),
    ];
    fc.assert(
      fc.property(fc.oneof(anyText, fc.string({ unit: "binary", minLength: 3000, maxLength: 12000 })), (text) => {
        expect(Array.from(trigramCodes(text))).toEqual(naive(text));
      }),
      { numRuns: 200 },
    );
    let seed = 7;
    const many = Array.from({ length: 9000 }, () => String.fromCharCode(33 + ((seed = (seed * 48271) % 2147483647) % 94))).join("");
    expect(naive(many).length).toBeGreaterThan(4096);
    expect(Array.from(trigramCodes(many))).toEqual(naive(many));
  });

  it("asks for at most 32 distinct trigrams of a long text, and none of a text under three units", () => {
    const q = Array.from({ length: 200 }, (_, i) => String.fromCharCode(33 + (i % 90))).join("");
    const asked = queryTrigrams(q)!;
    expect(asked.length).toBeLessThanOrEqual(32);
    expect(new Set(asked).size).toBe(asked.length);
    const held = new Set(trigramCodes(q));
    expect(asked.every((t) => held.has(t))).toBe(true);
    expect(queryTrigrams("ab")).toBeNull();
    const repeated = trigramCodes("S1 = 2\n".repeat(200));
    expect(new Set(repeated).size).toBe(repeated.length);
    expect(repeated.length).toBeLessThan(12);
  });
});
