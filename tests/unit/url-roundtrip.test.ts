import { describe, expect, it } from "vitest";
import { leaderboardHref, parseLeaderboardParams } from "@/lib/url/leaderboard";
import { hasItemFilters, parseRunParams, runHref } from "@/lib/url/run";

// Every view's state lives in its URL: a link built from a view's parameters parses back to
// the same parameters and rebuilds the very same link. One row per view and parameter set.
const query = (href: string) => new URLSearchParams(href.split("?")[1] ?? "");

/** A link built from `params` parses back to them and rebuilds the very same link. */
function roundTrip<P extends object>(name: string, href: (p: Partial<P>) => string, parse: (q: URLSearchParams) => P, params: Partial<P>) {
  return {
    name,
    check() {
      const link = href(params);
      const parsed = parse(query(link));
      expect(parsed).toMatchObject(params);
      expect(href(parsed)).toBe(link);
    },
  };
}

const CASES = [
  roundTrip("leaderboard: every filter, sort and page", leaderboardHref, parseLeaderboardParams, {
    benchmark: "dict-sum",
    variant: "k1",
    family: "Qwen3",
    thinking: "yes",
    minSize: 7,
    maxSize: 70,
    at: [5, 25, 95],
    sort: "at:25",
    dir: "asc",
    page: 3,
    pageSize: 50,
  }),
  roundTrip("leaderboard: search and the demo toggle", leaderboardHref, parseLeaderboardParams, {
    benchmark: "dict-sum",
    q: "alpha k1",
    demo: true,
  }),
  roundTrip("run: tab, item filters, sort and page", (p) => runHref("k", p), parseRunParams, {
    tab: "items",
    failed: true,
    mode: "premature-answer",
    kind: "slip",
    minLen: 5,
    maxLen: 25,
    div: "3-9",
    q: "50% _x",
    sort: "divergence",
    dir: "desc",
    page: 2,
  }),
];

describe("view URLs round-trip", () => {
  it.each(CASES)("$name", ({ check }) => check());

  it("the run URL's round trip keeps its item filters", () => {
    expect(hasItemFilters(parseRunParams(query(runHref("k", { tab: "items", failed: true }))))).toBe(true);
    expect(hasItemFilters(parseRunParams({}))).toBe(false);
  });
});
