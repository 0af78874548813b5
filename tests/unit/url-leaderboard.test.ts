import { describe, expect, it } from "vitest";
import {
  effectiveSort,
  leaderboardExportHref,
  leaderboardFilterHref,
  leaderboardHref,
  leaderboardSortHref,
  parseLeaderboardParams,
} from "@/lib/url/leaderboard";

describe("leaderboard URL", () => {
  it("leaves defaults out of links and falls back on bad values field by field", () => {
    expect(leaderboardHref(parseLeaderboardParams({}))).toBe("/");
    const p = parseLeaderboardParams({
      sort: "drop table",
      page: "-4",
      pageSize: "huge",
      at: "5,x,5,0,25",
      benchmark: "generic",
      thinking: "maybe",
    });
    expect(p).toMatchObject({ sort: undefined, page: 1, pageSize: 25, at: [5, 25], benchmark: "generic", thinking: undefined });
  });

  it("sorts numbers best-first by default and toggles on a second click", () => {
    const p = parseLeaderboardParams({});
    expect(effectiveSort(p)).toEqual({ sort: "h50", dir: "desc" });
    expect(leaderboardSortHref(p, "h50")).toContain("dir=asc");
    expect(leaderboardSortHref(p, "model")).toContain("sort=model&dir=asc");
    expect(leaderboardSortHref({ ...p, page: 4 }, "p")).not.toContain("page=");
  });

  it("takes the first value of a repeated key and builds export links without paging", () => {
    expect(parseLeaderboardParams({ benchmark: ["a", "b"] }).benchmark).toBe("a");
    const href = leaderboardExportHref(parseLeaderboardParams({ benchmark: "x", page: "2" }), "csv");
    expect(href).toBe("/export/leaderboard?benchmark=x&format=csv");
  });

  it("keeps the search and the demo toggle in the URL, and a filter change keeps both", () => {
    const href = leaderboardHref({ benchmark: "dict-sum", q: "alpha k1", demo: true });
    expect(href).toBe("/?benchmark=dict-sum&q=alpha+k1&demo=1");
    const p = parseLeaderboardParams(new URLSearchParams(href.slice(2)));
    expect(leaderboardFilterHref({ ...p, page: 3 }, { family: "Qwen3" })).toBe("/?benchmark=dict-sum&q=alpha+k1&demo=1&family=Qwen3");
    // Hiding demo runs again is the default: the flag leaves the link.
    expect(leaderboardFilterHref(p, { demo: false })).toBe("/?benchmark=dict-sum&q=alpha+k1");
    expect(parseLeaderboardParams({ q: "   ", demo: "no" })).toMatchObject({ q: undefined, demo: false });
    expect(parseLeaderboardParams({ q: "x".repeat(500) }).q).toHaveLength(100);
    expect(leaderboardExportHref(p, "json")).toBe("/export/leaderboard?benchmark=dict-sum&q=alpha+k1&demo=1&format=json");
  });
});
