// Confidence interval of the difference of two paired proportions: both runs answered the same
// items, so their accuracies are correlated and an unpaired interval would be too wide.
import { wilson } from "../analysis/stats";

export interface PairedTable {
  /** both correct */
  both: number;
  /** only A correct */
  onlyA: number;
  /** only B correct */
  onlyB: number;
  /** neither correct */
  neither: number;
}

/**
 * Newcombe's hybrid score interval for paired data (Newcombe 1998, Stat Med 17:2635, method 10,
 * without continuity correction) of Δ = accuracy(B) − accuracy(A), 95% by default: the Wilson
 * intervals of both accuracies combined through the phi correlation of the 2 × 2 table. Stays
 * inside [−1, 1] and behaves at 0 and n, where the Wald interval collapses.
 */
export function newcombePairedDiffCi(t: PairedTable): [number, number] | null {
  const n = t.both + t.onlyA + t.onlyB + t.neither;
  if (n <= 0) return null;
  const pB = (t.both + t.onlyB) / n;
  const pA = (t.both + t.onlyA) / n;
  const [lB, uB] = wilson(t.both + t.onlyB, n);
  const [lA, uA] = wilson(t.both + t.onlyA, n);
  const margins = (t.both + t.onlyB) * (t.onlyA + t.neither) * (t.both + t.onlyA) * (t.onlyB + t.neither);
  const phi = margins > 0 ? (t.both * t.neither - t.onlyA * t.onlyB) / Math.sqrt(margins) : 0;
  const d = pB - pA;
  const lower = d - Math.sqrt(Math.max(0, (pB - lB) ** 2 - 2 * phi * (pB - lB) * (uA - pA) + (uA - pA) ** 2));
  const upper = d + Math.sqrt(Math.max(0, (uB - pB) ** 2 - 2 * phi * (uB - pB) * (pA - lA) + (pA - lA) ** 2));
  return [Math.max(-1, lower), Math.min(1, upper)];
}
