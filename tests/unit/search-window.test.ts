import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nextWindow } from "../../lib/queries/item-sql";

// PostgreSQL's ordered search reads its run in windows; each next window is sized from the
// matches seen so far (lib/queries/item-sql.ts).
describe("nextWindow", () => {
  it("reads about what the wanted matches need at the rate seen, a quarter more", () => {
    // 171 of the first 256 outputs matched; 130 more wanted: ~195 rows, at least 256
    expect(nextWindow(256, 130, 171, 256)).toBe(256);
    // 14 of 256 matched; 287 more wanted: 287 × 256 / 14 × 1.25
    expect(nextWindow(256, 287, 14, 256)).toBe(6560);
    expect(nextWindow(256, 287, 1, 256)).toBe(16384);
  });

  it("grows 4× while nothing has matched, up to 16,384", () => {
    expect(nextWindow(256, 301, 0, 256)).toBe(1024);
    expect(nextWindow(4096, 301, 0, 5376)).toBe(16384);
    expect(nextWindow(16384, 301, 0, 21760)).toBe(16384);
  });

  it("stays within 256 and 16,384 rows, and covers the wanted matches at the rate seen when it can", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 16384 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 0, max: 100000 }),
        (last, wanted, extra) => {
          const checked = Math.max(1, extra);
          const matched = Math.min(checked, Math.floor(extra / 3));
          const w = nextWindow(last, wanted, matched, checked);
          expect(w).toBeGreaterThanOrEqual(Math.min(256, last * 4));
          expect(w).toBeLessThanOrEqual(16384);
          if (matched > 0 && w < 16384) expect((w * matched) / checked).toBeGreaterThanOrEqual(wanted);
        },
      ),
    );
  });
});
