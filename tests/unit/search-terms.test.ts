import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { searchQuery, searchTerms } from "../../lib/store/search-terms";

// The search index holds each output's distinct trigram words and its run's word; a search asks
// for its run's word and the words of its text. Whatever the text, every row that contains the
// searched text (ignoring the case of ASCII letters) must hold every word asked for: the
// candidates are re-checked exactly, but a row missing from them would never be found.

const wordsOf = (terms: string) => new Set(terms.split(" "));
const asked = (query: string) => query.split(" AND ").map((w) => JSON.parse(w) as string);
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

describe("search terms", () => {
  it("gives every substring of three units or more only words its text holds, whatever the ASCII case", () => {
    fc.assert(
      fc.property(anyText, fc.nat(), fc.nat(), fc.integer(), fc.nat({ max: 10_000 }), (text, i, len, mask, runId) => {
        const from = text.length ? i % text.length : 0;
        const q = flipAsciiCase(text.slice(from, from + 3 + (len % 40)), mask);
        const query = searchQuery(runId, q);
        if (q.length < 3) {
          expect(query).toBeNull();
          return;
        }
        const held = wordsOf(searchTerms(runId, text));
        for (const w of asked(query!)) expect(held.has(w), `${JSON.stringify(q)} in ${JSON.stringify(text)}: ${w}`).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("names the run, so another run's rows are never candidates", () => {
    const text = "S3 = S1 + S2 = 4.5 + 1 = 5.5";
    const held = wordsOf(searchTerms(7, text));
    expect(asked(searchQuery(7, "= 5.5")!).every((w) => held.has(w))).toBe(true);
    expect(asked(searchQuery(8, "= 5.5")!).every((w) => held.has(w))).toBe(false);
    expect(searchTerms(7, "")).toBe("z7");
    expect(searchTerms(7, "ab")).toBe("z7");
  });

  it("holds each trigram once, and narrows: a text that is not there is not asked for in vain", () => {
    const text = "S1 = 2\n".repeat(200);
    const words = searchTerms(1, text).split(" ");
    expect(new Set(words).size).toBe(words.length);
    expect(words.length).toBeLessThan(12);
    const held = wordsOf(searchTerms(1, "S1 = 2.5 + 3 = 5.5"));
    expect(asked(searchQuery(1, "= 7.25")!).every((w) => held.has(w))).toBe(false);
    expect(asked(searchQuery(1, "s1 = 2.5")!).every((w) => held.has(w))).toBe(true);
  });

  it("asks for at most 32 trigrams of a long text, spread over it", () => {
    const q = Array.from({ length: 200 }, (_, i) => String.fromCharCode(33 + (i % 90))).join("");
    const words = asked(searchQuery(3, q)!);
    expect(words[0]).toBe("z3");
    expect(words.length).toBeLessThanOrEqual(33);
    const held = wordsOf(searchTerms(3, q));
    expect(words.every((w) => held.has(w))).toBe(true);
  });
});
