import type { GenerationSummary } from "../analysis/types";

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

export function stepCounts(summaries: GenerationSummary[]): StepCounts[] {
  let maxLen = 0;
  for (const s of summaries) if (s.statuses.length > 0 && s.length > maxLen) maxLen = s.length;
  const rows: StepCounts[] = Array.from({ length: maxLen }, (_, i) => ({
    step: i + 1,
    n: 0,
    taskCorrect: 0,
    stepCorrect: 0,
    firstDivergences: 0,
  }));
  for (const s of summaries) {
    if (s.statuses.length === 0) continue;
    const fd = s.firstDivergence ?? Infinity;
    for (let i = 0; i < s.length; i++) {
      const row = rows[i];
      row.n++;
      if (fd > i + 1) row.taskCorrect++;
      const c = s.statuses.charCodeAt(i);
      if (c === 99 /* c */ || c === 112 /* p */) row.stepCorrect++;
    }
    if (s.firstDivergence !== null) rows[s.firstDivergence - 1].firstDivergences++;
  }
  return rows;
}
