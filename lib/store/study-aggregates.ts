import type { SummaryColumns } from "../analysis/summary-columns";
import { FAILURE_MODES, type RunHeader } from "../analysis/types";
import { runFactorColumns } from "../study/factors";
import type { RawTx } from "./raw";

// RunStudyStat: per run × length, the counts the study view pivots over many runs (docs/study.md),
// with the run's factor values as columns. Written with the run's other aggregates
// (writeRunMetrics), so the study page never reads generations.

export const STUDY_STAT_COLS = [
  "runId",
  "length",
  "n",
  "firstCorrect",
  "lastCorrect",
  "exactStep",
  "modes",
  "stepGenerations",
  "steps",
  "stepsCorrect",
  "stepsSq",
  "stepsCross",
  "stepsCorrectSq",
  "lookback",
  "inputRange",
  "ops",
  "dictSize",
  "k",
  "turnMode",
] as const;

interface LengthRow {
  n: number;
  first: number;
  last: number;
  exact: number;
  modes: number[];
  gens: number;
  t: number;
  c: number;
  tt: number;
  ct: number;
  cc: number;
}

/** Per-length counts of a run's generations (pure; the store test and the unit test read it). */
export function studyLengthRows(g: SummaryColumns): Map<number, LengthRow> {
  const rows = new Map<number, LengthRow>();
  for (let i = 0; i < g.n; i++) {
    const L = g.length[i];
    let r = rows.get(L);
    if (!r)
      rows.set(L, (r = { n: 0, first: 0, last: 0, exact: 0, modes: FAILURE_MODES.map(() => 0), gens: 0, t: 0, c: 0, tt: 0, ct: 0, cc: 0 }));
    r.n++;
    if (g.firstCorrect(i)) r.first++;
    if (g.lastCorrect(i)) r.last++;
    if (g.exactStep(i)) r.exact++;
    for (let b = 0; b < FAILURE_MODES.length; b++) if (g.modes[i] & (1 << b)) r.modes[b]++;
    if (!g.hasSteps(i)) continue;
    // reference steps are the generation's length
    r.gens++;
    r.t += L;
    r.tt += L * L;
  }
  // locally correct steps (correct or propagated) below each length, summed as pushed (StepTotals)
  const { cByLength, c2ByLength } = g.steps;
  for (const [L, r] of rows) {
    if (r.gens === 0) continue;
    r.c = cByLength[L];
    r.cc = c2ByLength[L];
    r.ct = cByLength[L] * L;
  }
  return rows;
}

/** Replaces the run's study aggregates. */
export async function writeStudyAggregates(tx: RawTx, runId: number, header: RunHeader, g: SummaryColumns): Promise<void> {
  await insertStudyRows(tx, runId, studyRows(runId, header, g));
}

/** The run's RunStudyStat rows (STUDY_STAT_COLS). */
export function studyRows(runId: number, header: RunHeader, g: SummaryColumns): unknown[][] {
  const f = runFactorColumns(header.benchmark, header.variant);
  const rows: unknown[][] = [];
  for (const [length, r] of [...studyLengthRows(g)].sort((a, b) => a[0] - b[0])) {
    const modes = Object.fromEntries(FAILURE_MODES.map((m, b) => [m, r.modes[b]]));
    rows.push([
      runId,
      length,
      r.n,
      r.first,
      r.last,
      r.exact,
      JSON.stringify(modes),
      r.gens,
      r.t,
      r.c,
      r.tt,
      r.ct,
      r.cc,
      f.lookback,
      f.inputRange,
      f.ops,
      f.dictSize,
      f.k,
      f.turnMode,
    ]);
  }
  return rows;
}

/** Replaces the run's RunStudyStat rows with `rows`. */
export async function insertStudyRows(tx: RawTx, runId: number, rows: unknown[][]): Promise<void> {
  await tx.exec(`DELETE FROM "RunStudyStat" WHERE "runId" = $1`, [runId]);
  if (rows.length) await tx.insertRows("RunStudyStat", [...STUDY_STAT_COLS], rows);
}
