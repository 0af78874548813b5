import { describe, expect, it } from "vitest";
import { heatOpacity } from "@/components/charts/failure-modes-by-length-chart";
import { binRows } from "@/components/charts/first-divergence-histogram";
import { bandPath, linePath, markerPath, scale, thinTicks } from "@/components/charts/geometry";
import { MARKERS } from "@/components/charts/palette";

describe("chart geometry", () => {
  it("maps linear and log domains onto pixels", () => {
    const y = scale([0, 1], [300, 20]);
    expect(y(0)).toBe(300);
    expect(y(1)).toBe(20);
    expect(y(0.5)).toBe(160);
    const x = scale([1, 100], [0, 200], true);
    expect(x(10)).toBeCloseTo(100, 9);
    expect(x(100)).toBeCloseTo(200, 9);
  });

  it("breaks lines at gaps and closes bands", () => {
    expect(linePath([[0, 0], [10, 5], null, [20, 1]])).toBe("M0,0L10,5M20,1");
    expect(bandPath([0, 10], [1, 2], [5, 6])).toBe("M0,1L10,2L10,6L0,5Z");
  });

  it("draws a different shape for every marker", () => {
    const shapes = MARKERS.map((m) => markerPath(m, 0, 0, 4));
    expect(new Set(shapes).size).toBe(MARKERS.length);
  });

  it("thins ticks and keeps the last one", () => {
    const t = thinTicks([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 4);
    expect(t.length).toBeLessThanOrEqual(5);
    expect(t[t.length - 1]).toBe(10);
  });

  it("bins divergence steps and keeps every count", () => {
    const rows = binRows(
      [
        { step: 1, count: 2 },
        { step: 150, count: 3 },
        { step: 300, count: 1 },
      ],
      300,
      100,
    );
    expect(rows).toHaveLength(100);
    expect(rows[0]).toEqual({ from: 1, to: 3, count: 2 });
    expect(rows.reduce((a, r) => a + r.count, 0)).toBe(6);
  });

  it("shades heat cells by share, never past full", () => {
    expect(heatOpacity(0)).toBe(0);
    expect(heatOpacity(0.01)).toBeGreaterThan(0.1);
    expect(heatOpacity(1)).toBeCloseTo(0.95, 9);
    expect(heatOpacity(3)).toBeCloseTo(0.95, 9);
  });
});
