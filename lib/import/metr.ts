// METR runs JSONL (their all_runs.jsonl): one record per agent run with task_id, task_family,
// alias (the agent), run_id, score_binarized, score_cont, human_minutes and task weights.
// One run per agent (--model keeps one): items are tasks, generations are the task's runs.
// Length is human minutes: Item.length holds it rounded (at least 1, the store's Int column),
// the exact minutes go to the length fit through GenerationAnalysis.lengthValue together with
// METR's task weight (recomputed from the data, normalised to 1 per agent, as METR does), and
// the fit is METR's (lib/analysis/weighted-fit.ts).
import type { RunHeader } from "../analysis/types";
import { givenOutcome } from "../analysis/outcome";
import type { ReaderEvent } from "../native/reader";
import { describe, isNum, slug, type ImportContext } from "./context";
import { jsonRecords } from "./lines";

interface Row {
  line: number;
  task: string;
  family: string;
  runId: string;
  y: number;
  cont: number | null;
  minutes: number;
}

/** METR's compute_task_weights: 1/runs-of-task, times 1/√tasks-of-family for invsqrt; sum 1. */
export function taskWeights(rows: { task: string; family: string }[], scheme: "invsqrt_task_weight" | "equal_task_weight"): number[] {
  const runsPerTask = new Map<string, number>();
  for (const r of rows) runsPerTask.set(r.task, (runsPerTask.get(r.task) ?? 0) + 1);
  const tasksPerFamily = new Map<string, Set<string>>();
  for (const r of rows) (tasksPerFamily.get(r.family) ?? tasksPerFamily.set(r.family, new Set()).get(r.family)!).add(r.task);
  const w = rows.map(
    (r) => (1 / runsPerTask.get(r.task)!) * (scheme === "invsqrt_task_weight" ? 1 / Math.sqrt(tasksPerFamily.get(r.family)!.size) : 1),
  );
  const sum = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / sum);
}

const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : typeof v === "number" && Number.isFinite(v) ? String(v) : null);

export async function* metrEvents(ctx: ImportContext): AsyncIterable<ReaderEvent> {
  // Records of different agents interleave, so a first pass keeps a compact row per record
  // (no text) and the runs are written agent by agent afterwards.
  const byAgent = new Map<string, Row[]>();
  const taskInfo = new Map<string, { family: string; minutes: number; line: number }>();
  for await (const { line, rec } of jsonRecords(ctx)) {
    const task = str(rec.task_id);
    const agent = str(rec.alias) ?? str(rec.agent) ?? str(rec.model);
    const family = str(rec.task_family) ?? task;
    const minutes = rec.human_minutes;
    const y = rec.score_binarized;
    if (!task) ctx.error(line, "task_id", `task_id must be text (got ${describe(rec.task_id)})`);
    else if (!agent) ctx.error(line, "alias", `alias (the agent) must be text (got ${describe(rec.alias)})`);
    else if (!isNum(minutes) || minutes <= 0)
      ctx.error(line, "human_minutes", `human_minutes must be a positive number (got ${describe(minutes)})`);
    else if (!(y === 0 || y === 1 || typeof y === "boolean"))
      ctx.error(line, "score_binarized", `score_binarized must be 0 or 1 (got ${describe(y)})`);
    else if (rec.score_cont !== undefined && rec.score_cont !== null && !isNum(rec.score_cont))
      ctx.error(line, "score_cont", `score_cont must be a number (got ${describe(rec.score_cont)})`);
    else {
      const known = taskInfo.get(task);
      if (known && (known.family !== family || known.minutes !== minutes)) {
        ctx.error(
          line,
          known.family !== family ? "task_family" : "human_minutes",
          `task '${task}' has a different ${known.family !== family ? "family" : "human_minutes"} on line ${known.line}`,
        );
        continue;
      }
      if (!known) taskInfo.set(task, { family: family!, minutes, line });
      if (ctx.opts.model && agent !== ctx.opts.model) continue;
      const rows = byAgent.get(agent) ?? byAgent.set(agent, []).get(agent)!;
      rows.push({
        line,
        task,
        family: family!,
        runId: str(rec.run_id) ?? `line-${line}`,
        y: y === true || y === 1 ? 1 : 0,
        cont: isNum(rec.score_cont) ? rec.score_cont : null,
        minutes,
      });
    }
  }
  if (ctx.failed) return;
  if (byAgent.size === 0)
    return ctx.error(0, "alias", ctx.opts.model ? `no runs of agent '${ctx.opts.model}' in the file` : "no runs in the file");

  for (const [agent, rows] of byAgent) {
    const header: RunHeader = {
      key: `${ctx.opts.key ?? "metr"}__${slug(agent)}`,
      model: { name: agent },
      benchmark: "generic",
      variant: { name: "metr-time-horizon", length_unit: "human minutes" },
      config: { weighting: ctx.opts.weighting, regularization_C: 10, length_unit: "human minutes" },
      source: { format: "metr-runs", paper: "arXiv:2503.14499" },
      created_at: null,
    };
    const run = ctx.run(header, rows[0].line, "alias");
    if (!run) continue;
    yield run;
    const weights = taskWeights(rows, ctx.opts.weighting);
    const epochs = new Map<string, number>();
    for (const [i, r] of rows.entries()) {
      const epoch = epochs.get(r.task) ?? 0;
      epochs.set(r.task, epoch + 1);
      const length = Math.max(1, Math.round(r.minutes));
      const item = {
        id: r.task,
        length,
        epoch,
        input: { task_id: r.task, task_family: r.family, human_minutes: r.minutes },
        output: null,
        answer: String(r.cont ?? r.y),
        metadata: {
          task_family: r.family,
          run_id: r.runId,
          score_binarized: r.y,
          score_cont: r.cont,
          human_minutes: r.minutes,
          weight: weights[i],
        },
      };
      const analysis = givenOutcome({ length, correct: r.y === 1, answer: item.answer, lengthValue: r.minutes, weight: weights[i] });
      const ev = ctx.generation(item, analysis, r.line, "run_id");
      if (ev) yield ev;
    }
  }
}
