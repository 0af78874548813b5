import type { SummaryColumns } from "../analysis/summary-columns";

// Per run × step counts stored in RunStepStat, so curves can be re-sliced without the
// generations. a(i) counts items whose first divergence is after step i; s(i) counts
// locally correct steps (correct or propagated).
export interface StepCounts {
  step: number;
  n: number;
  taskCorrect: number;
  stepCorrect: number;
  firstDivergences: number;
}

export function stepCounts(g: SummaryColumns): StepCounts[] {
  let maxLen = 0;
  for (let i = 0; i < g.n; i++) if (g.hasSteps(i) && g.length[i] > maxLen) maxLen = g.length[i];
  // Counts over a prefix of steps are kept as where each prefix ends, summed from the right:
  // one entry per generation, not one per step.
  const lengthEnds = new Float64Array(maxLen + 1);
  const taskEnds = new Float64Array(maxLen + 1);
  const stepCorrect = new Float64Array(maxLen);
  stepCorrect.set(g.steps.okByStepInLength.subarray(0, maxLen));
  const firstDivergences = new Float64Array(maxLen);
  for (let k = 0; k < g.n; k++) {
    if (!g.hasSteps(k)) continue;
    const L = g.length[k];
    const fd = g.firstDiv[k];
    lengthEnds[L]++;
    taskEnds[fd < 0 ? L : Math.max(0, Math.min(L, fd - 1))]++;
    if (fd >= 1) firstDivergences[fd - 1]++;
  }
  const rows: StepCounts[] = new Array(maxLen);
  let n = 0;
  let taskCorrect = 0;
  for (let i = maxLen - 1; i >= 0; i--) {
    n += lengthEnds[i + 1];
    taskCorrect += taskEnds[i + 1];
    rows[i] = { step: i + 1, n, taskCorrect, stepCorrect: stepCorrect[i], firstDivergences: firstDivergences[i] };
  }
  return rows;
}
