import { describe, expect, it } from "vitest";
import { isBrowserNavigation, sharePreviewHtml } from "../../lib/preview/share-page";
import {
  accuracyAtLengths,
  drawable,
  generationPreviewText,
  horizonText,
  runPreviewText,
  runVersion,
  type PreviewRun,
} from "../../lib/preview/text";

const point = (length: number, acc: number) => ({
  length,
  n: 100,
  first_correct: acc * 100,
  first_accuracy: acc,
  first_ci: [acc - 0.05, acc + 0.05] as [number, number],
  last_correct: acc * 100,
  last_accuracy: acc,
  last_ci: [acc - 0.05, acc + 0.05] as [number, number],
});

const run: PreviewRun = {
  key: "alpha__arith__1",
  model: { id: 3, name: "alpha-8b" },
  benchmark: "procedural-arith",
  variant: "lb3",
  loadedAt: "2026-06-01T10:00:00.000Z",
  generations: 500,
  metrics: {
    accuracy_by_length: [5, 10, 15, 20, 25].map((l, i) => point(l, 0.9 - i * 0.2)),
    horizon: { s: 0.5, steps: 12, censored: false, ci: [9, 14.5] },
  },
};

describe("link preview text", () => {
  it("titles a run model · benchmark and describes H₀.₅ with its CI and accuracy at the default lengths", () => {
    const t = runPreviewText(run);
    expect(t.title).toBe("alpha-8b · procedural-arith");
    expect(t.description).toContain("H₀.₅ 12 steps (95% CI 9–14.5)");
    expect(t.description).toContain("accuracy 90% at length 5, 50% at length 15, 10% at length 25");
    expect(t.description).toContain("500 generations");
    expect(accuracyAtLengths(run.metrics.accuracy_by_length).map((a) => a.length)).toEqual([5, 15, 25]);
  });

  it("says when the horizon is censored or missing", () => {
    expect(horizonText({ s: 0.5, steps: 40, censored: true, ci: [30, 40] })).toBe("H₀.₅ > 40 steps (95% CI 30–40)");
    expect(horizonText(null)).toBe("H₀.₅ n/a");
  });

  it("names the first divergence of a generation", () => {
    const g = { itemId: "a-07", length: 15, firstDivergence: 4, divergenceKind: "slip", firstCorrect: false, steps: 15 };
    expect(generationPreviewText(run, g).description).toMatch(/^first divergence at step 4 of 15 \(slip\) · answer wrong/);
    expect(generationPreviewText(run, { ...g, firstDivergence: null, firstCorrect: true }).description).toMatch(/^no divergence/);
  });

  it("versions by load time, one part per run", () => {
    expect(runVersion([run])).toBe(new Date(run.loadedAt).getTime().toString(36));
    expect(runVersion([run, { loadedAt: "2026-06-02T00:00:00Z" }]).split(".")).toHaveLength(2);
    expect(runVersion([{ loadedAt: "2026-06-02T00:00:00Z" }])).not.toBe(runVersion([run]));
  });

  it("draws only glyphs of the bundled font (others would be fetched from the network)", () => {
    expect(drawable("H₀.₅ · 90% – “ok” é")).toBe("H₀.₅ · 90% – “ok” é");
    expect(drawable("模型-7B 🚀")).toBe("??-7B ?");
    expect(drawable("x".repeat(200), 10)).toBe("xxxxxxxxx…");
  });
});

describe("share link preview page", () => {
  it("escapes every value and carries the tags a chat client reads", () => {
    const html = sharePreviewHtml({
      text: { title: 'evil"><script>alert(1)</script> · generic', description: "a & b" },
      image: "https://s.example/og/share/abc?v=1",
      url: "https://s.example/share/abc",
      location: "/runs/k",
    });
    expect(html).not.toContain("<script>");
    expect(html).toContain('<meta property="og:title" content="evil&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; · generic">');
    expect(html).toContain('<meta property="og:image" content="https://s.example/og/share/abc?v=1">');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(html).toContain('<meta property="og:description" content="a &amp; b">');
  });

  it("tells a browser's navigation from a chat client's fetch", () => {
    expect(isBrowserNavigation(new Headers({ "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" }))).toBe(true);
    expect(isBrowserNavigation(new Headers({ "user-agent": "Slackbot-LinkExpanding 1.0" }))).toBe(false);
    expect(isBrowserNavigation(new Headers({ "sec-fetch-mode": "cors" }))).toBe(false);
  });
});
