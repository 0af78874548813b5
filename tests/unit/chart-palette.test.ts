import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MARKERS, PAIR_COUNT, SERIES_COLOR_COUNT, modelStyle, runStyles, styleOfSlot } from "@/components/charts/palette";

const pair = (s: { color: string; marker: string }) => `${s.color}|${s.marker}`;

describe("model colours and markers", () => {
  it("has at least 12 pairs, all different", () => {
    expect(PAIR_COUNT).toBeGreaterThanOrEqual(12);
    const pairs = Array.from({ length: PAIR_COUNT }, (_, k) => pair(styleOfSlot(k)));
    expect(new Set(pairs).size).toBe(PAIR_COUNT);
  });

  it("neighbouring slots differ in colour and in marker", () => {
    for (let k = 0; k < PAIR_COUNT; k++) {
      const a = styleOfSlot(k);
      const b = styleOfSlot(k + 1);
      expect(a.color).not.toBe(b.color);
      expect(a.marker).not.toBe(b.marker);
    }
  });

  it("13 models (ids 1..13) get 13 different pairs", () => {
    const styles = Array.from({ length: 13 }, (_, i) => modelStyle(i + 1));
    expect(new Set(styles.map(pair)).size).toBe(13);
  });

  it("any models whose ids lie within 56 of each other get different pairs", () => {
    for (const start of [1, 17, 200, 999]) {
      const ids = Array.from({ length: PAIR_COUNT }, (_, i) => start + i);
      expect(new Set(ids.map((id) => pair(modelStyle(id)))).size).toBe(PAIR_COUNT);
    }
  });

  it("a model's style does not depend on which other models are on screen", () => {
    const all = [5, 2, 9, 14, 3, 27];
    const full = new Map(all.map((id, i) => [id, runStyles(all)[i]]));
    for (const subset of [[9], [14, 2], [27, 5, 3], [3, 9, 2, 14]]) {
      runStyles(subset).forEach((s, i) => expect(pair(s)).toBe(pair(full.get(subset[i])!)));
    }
    expect(pair(modelStyle(9))).toBe(pair(full.get(9)!));
  });

  it("a second run of one model keeps the model's colour with another marker", () => {
    const [a, b, c] = runStyles([4, 4, 7]);
    expect(b.color).toBe(a.color);
    expect(b.marker).not.toBe(a.marker);
    expect(pair(c)).toBe(pair(modelStyle(7)));
  });

  it("every series and mode colour has a light and a dark value in the charts block of globals.css", () => {
    const css = readFileSync(path.resolve(import.meta.dirname, "../../app/globals.css"), "utf8");
    const block = css.slice(css.indexOf("/* charts"), css.indexOf("/* end charts */"));
    const dark = block.slice(block.indexOf("@media (prefers-color-scheme: dark)"));
    const light = block.slice(0, block.indexOf("@media (prefers-color-scheme: dark)"));
    const names = [
      ...Array.from({ length: SERIES_COLOR_COUNT }, (_, i) => `--chart-s${i}`),
      ...["missing", "format", "premature", "selfcorr", "under", "extra", "slip"].map((m) => `--chart-mode-${m}`),
      ...["ink", "muted", "axis", "grid", "reference", "bar", "heat"].map((t) => `--chart-${t}`),
    ];
    // The surface (hollow markers, exported backgrounds) is the card's own colour in both themes.
    expect(light).toMatch(/--chart-surface: var\(--color-white, #ffffff\);/);
    expect(dark).not.toMatch(/--chart-surface:/);
    for (const n of names) {
      expect(light, n).toMatch(new RegExp(`${n}: #[0-9a-f]{6};`));
      expect(dark, n).toMatch(new RegExp(`${n}: #[0-9a-f]{6};`));
    }
    // The series hues must stay apart in each theme.
    for (const part of [light, dark]) {
      const values = Array.from({ length: SERIES_COLOR_COUNT }, (_, i) => part.match(new RegExp(`--chart-s${i}: (#[0-9a-f]{6})`))![1]);
      expect(new Set(values).size).toBe(SERIES_COLOR_COUNT);
    }
    expect(MARKERS.length).toBe(7);
  });
});
