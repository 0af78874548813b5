// Property-based fuzzing of every URL-state parser (lib/url/*): any search params — random
// keys, hostile values, repeated keys, arrays, URLSearchParams — give a valid params object
// (never a throw), and the canonical link built from it parses back to the same object, so a
// shared link always reopens the same screen.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareHref, parseCompareParams } from "../../lib/url/compare";
import { curvesHref, parseCurvesParams } from "../../lib/url/curves";
import { generationHref, parseGenerationParams } from "../../lib/url/generation";
import { leaderboardHref, parseLeaderboardParams } from "../../lib/url/leaderboard";
import { resolveRunKeys } from "../../lib/url/run-list";
import { parseDivergence, parseRunParams, runHref } from "../../lib/url/run";
import { parseSelfCondParams, selfCondHref } from "../../lib/url/selfcond";
import type { RawSearchParams } from "../../lib/url/shared";

type Route = { name: string; parse: (raw: RawSearchParams) => object; href: (p: never) => string; keys: string[] };
const ROUTES: Route[] = [
  {
    name: "leaderboard",
    parse: parseLeaderboardParams,
    href: leaderboardHref,
    keys: ["benchmark", "q", "demo", "variant", "family", "thinking", "minSize", "maxSize", "at", "sort", "dir", "page", "pageSize"],
  },
  {
    name: "run",
    parse: parseRunParams,
    href: (p: never) => runHref("k,ey/ü", p),
    keys: ["tab", "failed", "mode", "kind", "minLen", "maxLen", "div", "q", "sort", "dir", "page", "pageSize", "after", "before"],
  },
  { name: "curves", parse: parseCurvesParams, href: curvesHref, keys: ["runs", "answer", "x", "nopred", "nohz", "nostep"] },
  { name: "compare", parse: parseCompareParams, href: compareHref, keys: ["runs", "answer", "vs", "show", "page"] },
  { name: "selfcond", parse: parseSelfCondParams, href: selfCondHref, keys: ["models"] },
  { name: "generation", parse: parseGenerationParams, href: (p: never) => generationHref("k", "i/1", p), keys: ["epoch"] },
];

// Values that sit on the edges of the schemas, plus any string at all.
const value = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "0",
    "-1",
    "1",
    "2",
    "7",
    "1.5",
    "00",
    "+3",
    "1e3",
    "1e400",
    "-0",
    "NaN",
    "Infinity",
    "0x10",
    "9".repeat(30),
    "1,2,3",
    ",,",
    " 5 , 5 ,x",
    "at:5",
    "at:9999999",
    "h50",
    "l50",
    "asc",
    "desc",
    "DESC",
    "yes",
    "no",
    "true",
    "1",
    "none",
    "5-10",
    "10-5",
    "-7",
    "7-",
    "–",
    "items",
    "failures",
    "slip",
    "premature-answer",
    "__proto__",
    "constructor",
    "%",
    "%2C",
    "a,b",
    "a%2Cb",
    "\u0000",
    "\u202e",
    " x".repeat(150),
    "log",
    "both",
    "last",
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 300 }),
);
const rawArb = (keys: string[]) =>
  fc.dictionary(
    fc.oneof(fc.constantFrom(...keys, "__proto__", "constructor", "toString"), fc.string({ maxLength: 8 })),
    fc.oneof(value, fc.array(value, { maxLength: 3 }), fc.constant(undefined)),
    { maxKeys: 8 },
  );

/** The query part of an href as URLSearchParams (what Next hands the page). */
const queryOf = (href: string) => new URLSearchParams(href.includes("?") ? href.slice(href.indexOf("?") + 1).split("#")[0] : "");

describe.each(ROUTES)("URL state of $name under fuzzing", (route) => {
  const defaults = route.parse({});

  it("any search params → an object with exactly the schema's fields, never a throw", () => {
    expect(Object.keys(defaults).sort()).toEqual([...route.keys].sort());
    fc.assert(
      fc.property(rawArb(route.keys), fc.boolean(), (raw, asSearchParams) => {
        let input: RawSearchParams = raw;
        if (asSearchParams) {
          const sp = new URLSearchParams();
          for (const [k, v] of Object.entries(raw)) for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) sp.append(k, x);
          input = sp;
        }
        const p = route.parse(input) as Record<string, unknown>;
        expect(Object.keys(p).sort()).toEqual([...route.keys].sort());
        for (const [k, v] of Object.entries(p)) {
          // each field is its default or a value of the default's type
          const d = (defaults as Record<string, unknown>)[k];
          if (v !== undefined && d !== undefined) expect(typeof v, k).toBe(typeof d);
          if (typeof v === "number") expect(Number.isFinite(v), k).toBe(true);
        }
      }),
      { numRuns: 600, seed: 21 },
    );
  });

  it("the canonical link of any parsed state parses back to the same state", () => {
    fc.assert(
      fc.property(rawArb(route.keys), (raw) => {
        const p = route.parse(raw);
        const href = route.href(p as never);
        expect(route.parse(queryOf(href)), href).toEqual(p);
      }),
      { numRuns: 600, seed: 22 },
    );
  });
});

describe("URL helpers under fuzzing", () => {
  it("divergence filters and run-key lists are total", () => {
    fc.assert(
      fc.property(
        value,
        fc.array(fc.string({ maxLength: 6 }), { maxLength: 12 }),
        fc.array(fc.string({ maxLength: 6 }), { maxLength: 6 }),
        (text, pieces, known) => {
          const d = parseDivergence(text);
          if (d?.kind === "range") expect(d.from).toBeLessThanOrEqual(d.to);
          const { keys, unknown } = resolveRunKeys(pieces, new Set(known));
          expect(keys.length).toBeLessThanOrEqual(8);
          for (const k of keys) expect(known).toContain(k);
          expect(unknown.every((u) => pieces.includes(u))).toBe(true);
        },
      ),
      { numRuns: 1000, seed: 23 },
    );
  });
});
