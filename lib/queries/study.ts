import { canReadAll, visibleRunKeys } from "../auth/policy";
import type { Store } from "../db";
import type { ReadContext } from "../read-context";
import { join, sql, type Sql } from "../store/sql";
import type { FailureMode } from "../analysis/types";
import { factorsOf, type StudyFactor, type StudyMetric, type StudySeries } from "../study/definitions";
import { factorRecord } from "../study/factors";
import { pivotStudy, type LengthCell, type StudyRunInfo, type StudySeriesResult, type TurnCell } from "../study/pivot";
import type { StudyParams } from "../url/study";
import { numberOrNull, textOrNull } from "./sql-values";

// The study view's read: the stored per-run × length aggregates (RunStudyStat) of one
// benchmark's runs, filtered in SQL, pivoted in lib/study. Never reads generations. Used by the
// page, GET /api/v1/study and `stepwise study` (no "server-only": the CLI imports it). A
// listing read across runs: readers of everything only, and only the runs they may see.

export class StudyAccessError extends Error {}

export interface StudyOptions {
  benchmarks: { name: string; runs: number }[];
  factors: readonly StudyFactor[];
  models: string[];
  families: string[];
  sizes: number[];
  lookbacks: number[];
  inputRanges: string[];
  ops: string[];
  dictSizes: number[];
  ks: number[];
  turnModes: string[];
}

export interface StudyResult {
  benchmark: string | null;
  x: StudyFactor;
  series: StudySeries;
  metric: StudyMetric;
  /** runs that passed the filters (all of them contribute unless they lack the factor) */
  runs: StudyRunInfo[];
  data: StudySeriesResult[];
  /** why the (x, metric) pair has no answer, when it has none */
  problem: string | null;
  /** demo runs of the benchmark left out because real runs exist (`demo=all` shows them) */
  demoHidden: number;
  options: StudyOptions;
}

type Row = Record<string, unknown>;
const uniqueSorted = <T extends string | number>(xs: (T | null)[]): T[] =>
  [...new Set(xs.filter((x): x is T => x !== null))].sort((a, b) =>
    typeof a === "number" ? a - (b as number) : String(a).localeCompare(String(b)),
  );

function filterSql(p: StudyParams): Sql[] {
  const w: Sql[] = [];
  if (p.demo === "yes") w.push(sql`r."demo" = true`);
  if (p.demo === "no") w.push(sql`r."demo" = false`);
  if (p.models) w.push(sql`m."name" IN (${join(p.models)})`);
  if (p.families) w.push(sql`m."family" IN (${join(p.families)})`);
  if (p.minSize !== undefined) w.push(sql`m."paramsB" >= ${p.minSize}`);
  if (p.maxSize !== undefined) w.push(sql`m."paramsB" <= ${p.maxSize}`);
  if (p.thinking) w.push(sql`m."thinking" = ${p.thinking === "yes"}`);
  if (p.lookback !== undefined) w.push(sql`s."lookback" = ${p.lookback}`);
  if (p.inputRange) w.push(sql`s."inputRange" = ${p.inputRange}`);
  if (p.ops) w.push(sql`s."ops" = ${p.ops}`);
  if (p.dictSize !== undefined) w.push(sql`s."dictSize" = ${p.dictSize}`);
  if (p.k !== undefined) w.push(sql`s."k" = ${p.k}`);
  if (p.turnMode) w.push(sql`s."turnMode" = ${p.turnMode}`);
  return w;
}

function visibleSql(ctx: ReadContext): Sql {
  const keys = visibleRunKeys(ctx.principal, ctx.mode);
  if (keys === null) return sql`true`;
  return keys.length ? sql`r."key" IN (${join(keys)})` : sql`false`;
}

async function readOptions(ctx: ReadContext, benchmark: string | null): Promise<StudyOptions> {
  const store = ctx.store;
  const benchRows = await store.read<Row>(
    sql`SELECT r."benchmark", COUNT(*) AS "runs" FROM "Run" r WHERE r."selfConditioning" = false AND ${visibleSql(ctx)}
        GROUP BY r."benchmark" ORDER BY r."benchmark"`,
  );
  const benchmarks = benchRows.map((r) => ({ name: String(r.benchmark), runs: Number(r.runs) }));
  const empty: StudyOptions = {
    benchmarks,
    factors: benchmark ? factorsOf(benchmark) : [],
    models: [],
    families: [],
    sizes: [],
    lookbacks: [],
    inputRanges: [],
    ops: [],
    dictSizes: [],
    ks: [],
    turnModes: [],
  };
  if (!benchmark) return empty;
  const rows = await store.read<Row>(sql`
    SELECT DISTINCT m."name", m."family", m."paramsB", s."lookback", s."inputRange", s."ops", s."dictSize", s."k", s."turnMode"
    FROM "Run" r JOIN "Model" m ON m."id" = r."modelId" JOIN "RunStudyStat" s ON s."runId" = r."id"
    WHERE r."benchmark" = ${benchmark} AND r."selfConditioning" = false AND ${visibleSql(ctx)}`);
  return {
    ...empty,
    models: uniqueSorted(rows.map((r) => textOrNull(r.name))),
    families: uniqueSorted(rows.map((r) => textOrNull(r.family))),
    sizes: uniqueSorted(rows.map((r) => numberOrNull(r.paramsB))),
    lookbacks: uniqueSorted(rows.map((r) => numberOrNull(r.lookback))),
    inputRanges: uniqueSorted(rows.map((r) => textOrNull(r.inputRange))),
    ops: uniqueSorted(rows.map((r) => textOrNull(r.ops))),
    dictSizes: uniqueSorted(rows.map((r) => numberOrNull(r.dictSize))),
    ks: uniqueSorted(rows.map((r) => numberOrNull(r.k))),
    turnModes: uniqueSorted(rows.map((r) => textOrNull(r.turnMode))),
  };
}

const bool = (v: unknown): boolean | null => (v === null || v === undefined ? null : Boolean(v) && v !== "f");

/** The study of `p.benchmark` (the first benchmark with runs when none is given). */
export async function getStudy(ctx: ReadContext, p: StudyParams): Promise<StudyResult> {
  // Access before any read: the study spans runs, so it needs a reader of everything.
  if (!canReadAll(ctx.principal, ctx.mode)) throw new StudyAccessError("the study view needs a reader of every run");
  const store = ctx.store;
  const firstOptions = await readOptions(ctx, p.benchmark ?? null);
  const benchmark = p.benchmark ?? firstOptions.benchmarks[0]?.name ?? null;
  const options = p.benchmark || !benchmark ? firstOptions : await readOptions(ctx, benchmark);
  const base = { benchmark, x: p.x, series: p.series, metric: p.metric, options, demoHidden: 0 };
  if (!benchmark) return { ...base, runs: [], data: [], problem: null };
  if (!options.factors.includes(p.x)) return { ...base, runs: [], data: [], problem: `${benchmark} defines no factor ${p.x}` };

  const where = [sql`r."benchmark" = ${benchmark}`, sql`r."selfConditioning" = false`, visibleSql(ctx), ...filterSql(p)];
  // As the leaderboard: simulated demo runs stay out of the averages once real runs exist.
  if (!p.demo) {
    const [c] = await store.read<Row>(sql`
      SELECT SUM(CASE WHEN r."demo" THEN 0 ELSE 1 END) AS "real", SUM(CASE WHEN r."demo" THEN 1 ELSE 0 END) AS "demo"
      FROM "Run" r WHERE r."benchmark" = ${benchmark} AND r."selfConditioning" = false AND ${visibleSql(ctx)}`);
    if (Number(c?.real ?? 0) > 0 && Number(c?.demo ?? 0) > 0) {
      base.demoHidden = Number(c.demo);
      where.push(sql`r."demo" = false`);
    }
  }
  const rows = await store.read<Row>(sql`
    SELECT r."id" AS "runId", r."key", r."h50", r."h50Lo", r."h50Hi", r."h50Censored", m."name" AS "model", m."family", m."paramsB", m."thinking",
      s."length", s."n", s."firstCorrect", s."lastCorrect", s."exactStep", s."modes", s."stepGenerations", s."steps", s."stepsCorrect",
      s."stepsSq", s."stepsCross", s."stepsCorrectSq", s."lookback", s."inputRange", s."ops", s."dictSize", s."k", s."turnMode"
    FROM "Run" r JOIN "Model" m ON m."id" = r."modelId" JOIN "RunStudyStat" s ON s."runId" = r."id"
    WHERE ${join(where, " AND ")}
    ORDER BY r."key", s."length"`);

  const runs = new Map<string, StudyRunInfo & { id: number; k: number }>();
  const lengthCells: LengthCell[] = [];
  for (const r of rows) {
    const key = String(r.key);
    if (!runs.has(key)) {
      const paramsB = numberOrNull(r.paramsB);
      const thinking = bool(r.thinking);
      const h50 = numberOrNull(r.h50);
      const lo = numberOrNull(r.h50Lo);
      const hi = numberOrNull(r.h50Hi);
      runs.set(key, {
        id: Number(r.runId),
        k: numberOrNull(r.k) ?? 1,
        key,
        model: String(r.model),
        family: textOrNull(r.family),
        paramsB,
        thinking,
        factors: factorRecord(
          {
            lookback: numberOrNull(r.lookback),
            inputRange: textOrNull(r.inputRange),
            ops: textOrNull(r.ops),
            dictSize: numberOrNull(r.dictSize),
            k: numberOrNull(r.k),
            turnMode: textOrNull(r.turnMode),
          },
          { paramsB, thinking },
        ),
        h50: h50 === null ? null : { value: h50, ci: lo !== null && hi !== null ? [lo, hi] : null, censored: Boolean(bool(r.h50Censored)) },
      });
    }
    lengthCells.push({
      run: key,
      length: Number(r.length),
      n: Number(r.n),
      firstCorrect: Number(r.firstCorrect),
      lastCorrect: Number(r.lastCorrect),
      exactStep: Number(r.exactStep),
      modes: JSON.parse(String(r.modes)) as Partial<Record<FailureMode, number>>,
      steps: {
        n: Number(r.stepGenerations),
        t: Number(r.steps),
        c: Number(r.stepsCorrect),
        tt: Number(r.stepsSq),
        ct: Number(r.stepsCross),
        cc: Number(r.stepsCorrectSq),
      },
    });
  }

  let turnCells: TurnCell[] = [];
  if (p.x === "turn" && runs.size > 0) turnCells = await readTurnCells(store, [...runs.values()]);
  const runList: StudyRunInfo[] = [...runs.values()].map((r) => ({
    key: r.key,
    model: r.model,
    family: r.family,
    paramsB: r.paramsB,
    thinking: r.thinking,
    factors: r.factors,
    h50: r.h50,
  }));
  try {
    const data = pivotStudy({ x: p.x, series: p.series, metric: p.metric, runs: runList, lengthCells, turnCells });
    return { ...base, runs: runList, data, problem: null };
  } catch (e) {
    return { ...base, runs: runList, data: [], problem: e instanceof Error ? e.message : String(e) };
  }
}

/** Turn t of a run with K steps per turn: its first step's stored counts (a turn's steps share its status). */
async function readTurnCells(store: Store, runs: { id: number; key: string; k: number }[]): Promise<TurnCell[]> {
  const byId = new Map(runs.map((r) => [r.id, r]));
  const rows = await store.read<Row>(sql`
    SELECT "runId", "step", "n", "taskCorrect", "stepCorrect" FROM "RunStepStat"
    WHERE "runId" IN (${join(runs.map((r) => r.id))}) ORDER BY "runId", "step"`);
  const out: TurnCell[] = [];
  for (const r of rows) {
    const run = byId.get(Number(r.runId))!;
    const step = Number(r.step);
    if ((step - 1) % run.k !== 0) continue;
    out.push({
      run: run.key,
      turn: (step - 1) / run.k + 1,
      n: Number(r.n),
      taskCorrect: Number(r.taskCorrect),
      stepCorrect: Number(r.stepCorrect),
    });
  }
  return out;
}

/** The API's and the CLI's JSON (docs/study.md): values as fractions, n generations (runs for h50). */
export function studyJson(r: StudyResult) {
  return {
    benchmark: r.benchmark,
    x: r.x,
    series_by: r.series,
    metric: r.metric,
    problem: r.problem,
    series: r.data.map((s) => ({
      name: s.name,
      points: s.points.map((pt) => ({ x: pt.x, value: pt.value, ci: pt.ci, n: pt.n, models: pt.models, method: pt.method, runs: pt.runs })),
    })),
  };
}
