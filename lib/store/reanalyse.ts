import { readProcedure, referenceTrace } from "../analysis/arith";
import { arithAnswerCorrect, distinctNumbers } from "../analysis/arith-align";
import { toleranceFromConfig, DEFAULT_TOLERANCE, type Tolerance } from "../analysis/numbers";
import { FAILURE_MODES, type BenchmarkName, type RunHeader, type StoredGenerationAnalysis } from "../analysis/types";
import { arithLookback } from "../analysis/analyse";
import { storedSummaries } from "./incremental";
import { decodeItemContent } from "./item-content";
import type { RawTx } from "./raw";
import { writeRunMetrics } from "./run-record";
import { writeSignposts } from "./signposts";
import { decodeStepTrace } from "./step-trace";
import { writeStudyAggregates } from "./study-aggregates";

// The code step of migration 0010 (lib/store/migrate.ts runs it after every SQL file): grades
// stored procedural-arith answers as the paper does (S_L rounded to 3 decimals only; earlier
// versions also accepted the unrounded S_L), recomputes the metrics of the runs whose grades
// changed, and writes the study aggregates of every stored run. Everything it needs is stored
// (each answer's value, the item's reference trace), so no model text is parsed again.

const SELF_CORRECTION = 1 << FAILURE_MODES.indexOf("self-correction");

interface RunRow {
  id: number;
  key: string;
  benchmark: string;
  config: string;
  source: string;
  variantJson: string;
  createdAt: string | null;
  model: string;
  family: string | null;
  paramsB: number | null;
  thinking: unknown;
}

const parse = <T>(text: string | null, fallback: T): T => {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

function headerOf(r: RunRow): RunHeader {
  return {
    key: r.key,
    model: {
      name: r.model,
      family: r.family,
      params_b: r.paramsB === null ? null : Number(r.paramsB),
      thinking: r.thinking === null ? null : Boolean(r.thinking),
    },
    benchmark: r.benchmark as BenchmarkName,
    variant: parse(r.variantJson, { name: "" }),
    config: parse(r.config, {}),
    source: parse(r.source, null),
    created_at: r.createdAt,
  };
}

export interface ReanalyseReport {
  runs: number;
  regraded: { run: string; generations: number }[];
}

/** Re-grades one arith run's stored generations; returns how many changed. */
export async function regradeArithRun(tx: RawTx, runId: number, tol: Tolerance, lookback: number | null): Promise<number> {
  const rows = await tx.query<{
    id: number;
    length: number;
    firstCorrect: unknown;
    lastCorrect: unknown;
    modes: number;
    clean: unknown;
    analysis: string;
    stepTrace: Uint8Array | null;
  }>(
    `SELECT "id", "length", "firstCorrect", "lastCorrect", "modes", "clean", "analysis", "stepTrace" FROM "Generation" WHERE "runId" = $1`,
    [runId],
  );
  let changed = 0;
  for (const r of rows) {
    const a = parse<Partial<StoredGenerationAnalysis>>(r.analysis, {});
    // answers graded by another tool (imports without a step trace) keep their grades
    if (!a.hasSteps || !Array.isArray(a.answers)) continue;
    // the reference's last value, as the step trace holds it (the item record keeps no reference
    // for arith), or from the item's input where the load stored no trace (derived-trace.ts)
    const final =
      r.stepTrace === null
        ? await finalReference(tx, r.id, lookback)
        : Number(decodeStepTrace(r.stepTrace)[Number(r.length) - 1]?.expected);
    if (final === null || Number.isNaN(final)) continue;
    const answers = a.answers;
    const first = answers.length ? arithAnswerCorrect(answers[0].value, final, tol) : false;
    const last = answers.length ? arithAnswerCorrect(answers[answers.length - 1].value, final, tol) : false;
    let modes = Number(r.modes) & ~SELF_CORRECTION;
    if (!first && distinctNumbers(answers, tol) >= 2) modes |= SELF_CORRECTION;
    const clean = modes === 0 && last;
    if (first === Boolean(r.firstCorrect) && last === Boolean(r.lastCorrect) && modes === Number(r.modes) && clean === Boolean(r.clean))
      continue;
    await tx.exec(`UPDATE "Generation" SET "firstCorrect" = $1, "lastCorrect" = $2, "modes" = $3, "clean" = $4 WHERE "id" = $5`, [
      first,
      last,
      modes,
      clean,
      r.id,
    ]);
    changed++;
  }
  return changed;
}

/** S_L of a generation's item, executed from its stored input; null when it does not execute. */
async function finalReference(tx: RawTx, generationId: number, lookback: number | null): Promise<number | null> {
  const [row] = await tx.query<{ body: Uint8Array }>(
    `SELECT c."body" FROM "Generation" g JOIN "Item" i ON i."id" = g."itemId" JOIN "ItemContent" c ON c."id" = i."contentId" WHERE g."id" = $1`,
    [generationId],
  );
  if (!row) return null;
  const { proc } = readProcedure(decodeItemContent(row.body).input, lookback);
  const trace = proc && referenceTrace(proc).trace;
  return trace ? trace[trace.length - 1] : null;
}

/** Re-grades every stored arith run and (re)writes every run's study aggregates. */
export async function reanalyseStoredRuns(tx: RawTx): Promise<ReanalyseReport> {
  const runs = await tx.query<RunRow>(
    `SELECT r."id", r."key", r."benchmark", r."config", r."source", r."variantJson", r."createdAt",
       m."name" AS "model", m."family", m."paramsB", m."thinking"
     FROM "Run" r JOIN "Model" m ON m."id" = r."modelId" ORDER BY r."id"`,
  );
  const report: ReanalyseReport = { runs: runs.length, regraded: [] };
  for (const r of runs) {
    const runId = Number(r.id);
    const header = headerOf(r);
    let changed = 0;
    if (header.benchmark === "procedural-arith") {
      let tol = DEFAULT_TOLERANCE;
      try {
        tol = toleranceFromConfig(header.config);
      } catch {
        /* a run loaded with a malformed tolerance could not exist; keep the default */
      }
      changed = await regradeArithRun(tx, runId, tol, arithLookback(header));
    }
    const summaries = await storedSummaries(tx, runId);
    // Metrics are recomputed only where grades changed: the stored summaries lack the
    // length values and weights some imports carry (METR), which their metrics need.
    if (changed > 0) {
      await writeRunMetrics(tx, runId, header, summaries);
      // the "failed" signposts list generations by first-answer correctness
      await writeSignposts(tx, runId);
      report.regraded.push({ run: r.key, generations: changed });
    } else await writeStudyAggregates(tx, runId, header, summaries);
  }
  return report;
}
