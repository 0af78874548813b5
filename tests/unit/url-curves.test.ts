import { describe, expect, it } from "vitest";
import { curvesHref, itemsAtLengthTemplate, parseCurvesParams } from "@/lib/url/curves";
import { compareHref, parseCompareParams } from "@/lib/url/compare";
import { parseSelfCondParams, selfCondHref } from "@/lib/url/selfcond";
import { resolveRunKeys } from "@/lib/url/run-list";
import { fillHref } from "@/components/charts/geometry";

/** What Next hands a page: the query string decoded once. */
function searchParamsOf(href: string): Record<string, string> {
  const q = href.split("?")[1] ?? "";
  return Object.fromEntries(new URLSearchParams(q));
}

describe("curves URL", () => {
  it("defaults", () => {
    expect(parseCurvesParams({})).toEqual({ runs: [], answer: "first", x: "linear", nopred: false, nostep: false, nohz: false });
    expect(curvesHref({})).toBe("/curves");
  });

  it("round-trips through a link", () => {
    const p = {
      runs: ["qwen3-32b__arith-lb3__2026-05-01", "a b/c?d"],
      answer: "both" as const,
      x: "log" as const,
      nopred: true,
      nostep: true,
      nohz: true,
    };
    const href = curvesHref(p);
    expect(href).toBe("/curves?runs=qwen3-32b__arith-lb3__2026-05-01,a%20b%2Fc%3Fd&answer=both&x=log&nopred=1&nostep=1&nohz=1");
    expect(parseCurvesParams(searchParamsOf(href))).toEqual(p);
  });

  it("bad values fall back to defaults without resetting the rest", () => {
    expect(parseCurvesParams({ runs: "A,B", answer: "sideways", x: "log" })).toEqual({
      runs: ["A", "B"],
      answer: "first",
      x: "log",
      nopred: false,
      nostep: false,
      nohz: false,
    });
  });

  it("re-joins keys that contain commas", () => {
    const known = new Set(["a,b", "c"]);
    expect(resolveRunKeys(["a", "b", "c", "zzz"], known)).toEqual({ keys: ["a,b", "c"], unknown: ["zzz"] });
    expect(resolveRunKeys(["c", "c"], known)).toEqual({ keys: ["c"], unknown: [] });
  });

  it("items-at-length template uses the run page's param names", () => {
    expect(fillHref(itemsAtLengthTemplate("k/1"), { length: 25 })).toBe("/runs/k%2F1?tab=items&minLen=25&maxLen=25");
  });
});

describe("compare URL", () => {
  it("round-trips", () => {
    const href = compareHref({ runs: ["A", "B", "C"], answer: "last", vs: 2, show: "regressions", page: 3 });
    expect(parseCompareParams(searchParamsOf(href))).toEqual({
      runs: ["A", "B", "C"],
      answer: "last",
      vs: 2,
      show: "regressions",
      page: 3,
    });
    expect(compareHref({ runs: ["A", "B"], answer: "first", vs: 1, show: "discordant", page: 1 })).toBe("/compare?runs=A,B");
  });
});

describe("self-conditioning URL", () => {
  it("round-trips model names", () => {
    const href = selfCondHref({ models: ["Sim-A, large", "Sim-B"] });
    // a comma inside a name is encoded, so the pieces split back correctly only after re-join;
    // names without commas round-trip exactly
    expect(parseSelfCondParams(searchParamsOf(selfCondHref({ models: ["Sim A", "Sim-B"] })))).toEqual({ models: ["Sim A", "Sim-B"] });
    expect(href.startsWith("/self-conditioning?models=")).toBe(true);
  });
});
