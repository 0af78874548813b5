import { describe, expect, it } from "vitest";
import { generationHref, parseGenerationParams, stepAnchor } from "@/lib/url/generation";
import {
  effectiveRunTab,
  parseDivergence,
  parseRunParams,
  runHref,
  runItemsExportHref,
  runItemsHref,
  runItemsSortHref,
  runItemsTemplate,
} from "@/lib/url/run";
import { routeParam } from "@/lib/url/shared";

describe("run URL", () => {
  it("encodes run keys and drops unknown modes", () => {
    expect(runHref("a/b c", {})).toBe("/runs/a%2Fb%20c");
    expect(parseRunParams({ mode: "evil" }).mode).toBeUndefined();
    expect(parseRunParams({ tab: "nope" }).tab).toBeUndefined();
  });

  it("resets the page on a filter change and toggles sort direction", () => {
    const p = parseRunParams({ tab: "items", page: "5" });
    expect(runItemsHref("k", p, { failed: true })).toBe("/runs/k?tab=items&failed=1");
    expect(runItemsSortHref("k", parseRunParams({ sort: "length" }), "length")).toContain("sort=length&dir=desc");
    expect(runItemsExportHref("k", parseRunParams({ tab: "items", failed: "1", page: "3" }), "json")).toBe(
      "/export/runs/k/items?failed=1&format=json",
    );
  });

  it("parses first-divergence filters", () => {
    expect(parseDivergence("7")).toEqual({ kind: "exact", step: 7 });
    expect(parseDivergence("10-5")).toEqual({ kind: "range", from: 5, to: 10 });
    expect(parseDivergence("-8")).toEqual({ kind: "range", from: 1, to: 8 });
    expect(parseDivergence("none")).toEqual({ kind: "none" });
    expect(parseDivergence("abc")).toBeUndefined();
  });

  it("keeps chart placeholders raw in item templates", () => {
    expect(runItemsTemplate("k", { minLen: "{length}", maxLen: "{length}" })).toBe("/runs/k?tab=items&minLen={length}&maxLen={length}");
  });
});

describe("generation URL", () => {
  it("puts the epoch in the query (default left out) and the step in the hash", () => {
    expect(generationHref("r", "i-1")).toBe("/runs/r/items/i-1");
    expect(generationHref("r", "evil <1>", { epoch: 2 }, 7)).toBe("/runs/r/items/evil%20%3C1%3E?epoch=2#step-7");
    expect(parseGenerationParams({ epoch: "2" }).epoch).toBe(2);
    expect(parseGenerationParams({ epoch: "-1" }).epoch).toBe(0);
    expect(stepAnchor(42)).toBe("step-42");
  });

  it("decodes route segments once", () => {
    expect(routeParam("evil%20%3C1%3E")).toBe("evil <1>");
    expect(routeParam("plain")).toBe("plain");
    expect(routeParam("100%")).toBe("100%");
  });

  it("opens the items tab for a URL that filters items without naming a tab, and keeps a named tab in links", () => {
    expect(effectiveRunTab(parseRunParams({}))).toBe("curves");
    expect(effectiveRunTab(parseRunParams({ failed: "1" }))).toBe("items");
    expect(effectiveRunTab(parseRunParams({ mode: "slip" }))).toBe("items");
    expect(effectiveRunTab(parseRunParams({ failed: "1", tab: "failures" }))).toBe("failures");
    // The curves tab of a filtered URL must say so, or it would reopen as items.
    const curves = runHref("k", { ...parseRunParams({ failed: "1" }), tab: "curves" });
    expect(curves).toBe("/runs/k?tab=curves&failed=1");
    expect(effectiveRunTab(parseRunParams(new URLSearchParams(curves.split("?")[1])))).toBe("curves");
    expect(runHref("k", { tab: "curves" })).toBe("/runs/k");
  });
});
