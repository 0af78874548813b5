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
  for (let i = 0; i < g.n; i++) if (g.statusCount(i) > 0 && g.length[i] > maxLen) maxLen = g.length[i];
  const rows: StepCounts[] = Array.from({ length: maxLen }, (_, i) => ({
    step: i + 1,
    n: 0,
    taskCorrect: 0,
    stepCorrect: 0,
    firstDivergences: 0,
  }));
  for (let k = 0; k < g.n; k++) {
    const count = g.statusCount(k);
    if (count === 0) continue;
    const fd = g.firstDiv[k] < 0 ? Infinity : g.firstDiv[k];
    for (let i = 0; i < g.length[k]; i++) {
      const row = rows[i];
      row.n++;
      if (fd > i + 1) row.taskCorrect++;
      const c = i < count ? g.status(k, i) : 0;
      if (c === 99 /* c */ || c === 112 /* p */) row.stepCorrect++;
    }
    if (fd !== Infinity) rows[fd - 1].firstDivergences++;
  }
  return rows;
}
