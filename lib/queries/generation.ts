import "server-only";
import type { RunAccess } from "@/lib/auth/run-access";
import type { Db } from "@/lib/db";
import type { ReadContext } from "@/lib/read-context";
import type { FailureMode, StepRow, StepStatus, StoredGenerationAnalysis } from "@/lib/analysis/types";
import { decodeItemContent } from "@/lib/store/item-content";
import { storedOutput } from "@/lib/store/output-text";
import { decodeStepTrace } from "@/lib/store/step-trace";
import { decodeModes } from "@/lib/analysis/failure-modes";
import { parseJsonOr } from "@/lib/json";
import { ownOperands, stepOperations, type StepOperation } from "./step-operations";

// Everything the trace-diff page shows for one generation. Model output is returned as
// plain strings: the page renders it as text only.

export interface GenerationStep {
  step: number;
  status: StepStatus;
  expected: string;
  claimed: string | null;
  recomputed: string | null;
  span: [number, number] | null;
  /** dict-sum: the turn holding this step (multi-turn: the turn text `span` points into) */
  turn: number | null;
  /** what the step computes (arith: "S4 − S2"; dict-sum: "+ alarm (88)") */
  operation: StepOperation | null;
  /** the model's own operand values, for slips and propagated steps */
  operands: NonNullable<StepRow["operands"]> | null;
}

export interface GenerationRef {
  itemId: string;
  epoch: number;
}

export interface GenerationDetail {
  run: { key: string; model: string; benchmark: string; variant: string; hasSteps: boolean; selfConditioning: boolean };
  item: { id: string; length: number; input: Record<string, unknown>; inducedErrorRate: number | null };
  epoch: number;
  epochs: number[];
  /** the raw output: one text, or one text per turn (dict-sum multi-turn) */
  output: { kind: "text"; text: string } | { kind: "turns"; turns: string[] };
  firstAnswer: string | null;
  lastAnswer: string | null;
  firstCorrect: boolean;
  lastCorrect: boolean;
  firstDivergence: number | null;
  divergenceKind: string | null;
  modes: FailureMode[];
  clean: boolean;
  usage: { promptTokens: number | null; completionTokens: number | null; latencyMs: number | null; costUsd: number | null };
  analysis: StoredGenerationAnalysis;
  steps: GenerationStep[];
  /** 1-based position of this generation in the run's item order, and the run's count */
  position: { index: number; total: number };
  prevFailed: GenerationRef | null;
  nextFailed: GenerationRef | null;
}

/** Multi-turn dict-sum outputs are stored as a JSON array of turn texts. */
function outputOf(raw: string, benchmark: string, a: StoredGenerationAnalysis): GenerationDetail["output"] {
  if (benchmark === "dict-sum" && !a.selfConditioning && !a.answers.some((x) => x.kind === "list") && raw.startsWith("[")) {
    const v = parseJsonOr<unknown>(raw, null);
    if (Array.isArray(v) && v.every((t) => typeof t === "string")) return { kind: "turns", turns: v as string[] };
  }
  return { kind: "text", text: raw };
}

/** Turn of each step, from the turn rows (K keys per turn). */
function turnOfStep(a: StoredGenerationAnalysis): Map<number, number> {
  const out = new Map<number, number>();
  let step = 0;
  for (const t of a.turns ?? []) for (let i = 0; i < t.keys.length; i++) out.set(++step, t.turn);
  return out;
}

/**
 * 1-based place of a generation the loader did not number (a run written one generation at
 * a time): a count of the generations before it, which grows with the run.
 */
async function positionByCount(prisma: Db, runId: number, itemId: number, epoch: number): Promise<number> {
  const [before, beforeHere] = await Promise.all([
    prisma.generation.count({ where: { runId, itemId: { lt: itemId } } }),
    prisma.generation.count({ where: { runId, itemId, epoch: { lt: epoch } } }),
  ]);
  return before + beforeHere + 1;
}

export async function getGeneration(ctx: ReadContext, access: RunAccess, itemKey: string, epoch: number): Promise<GenerationDetail | null> {
  const prisma = ctx.store.prisma;
  const run = await prisma.run.findUnique({
    where: { key: access.key },
    select: {
      id: true,
      key: true,
      benchmark: true,
      hasSteps: true,
      selfConditioning: true,
      generationCount: true,
      model: { select: { name: true } },
      variant: { select: { name: true } },
    },
  });
  if (!run) return null;
  const item = await prisma.item.findUnique({
    where: { runId_key: { runId: run.id, key: itemKey } },
    select: { id: true, key: true, length: true, inducedErrorRate: true, content: { select: { body: true } } },
  });
  if (!item) return null;
  const gens = await prisma.generation.findMany({ where: { itemId: item.id }, select: { epoch: true }, orderBy: { epoch: "asc" } });
  const g = await prisma.generation.findUnique({ where: { itemId_epoch: { itemId: item.id, epoch } } });
  if (!g) return null;

  const analysis = parseJsonOr<StoredGenerationAnalysis>(g.analysis, {
    answers: [],
    extras: [],
    revised: [],
    turns: null,
    exactStep: false,
    hasSteps: false,
    selfConditioning: null,
  });
  const { input } = decodeItemContent(item.content.body);
  const output = outputOf(storedOutput(g.output, g.outputDeflated), run.benchmark, analysis);
  const turns = analysis.turns ? turnOfStep(analysis) : null;
  const trace = decodeStepTrace(g.stepTrace);
  const ops = stepOperations(run.benchmark, input, analysis, item.length);

  // Item order = load order (item id), then epoch: the order of the run's item table. Each
  // neighbour is two index seeks on (runId, firstCorrect, itemId, epoch): one within this
  // item's epochs, one among the other items. An OR of the two would not use the index.
  const ref = { itemKey: true, epoch: true } as const;
  const failed = { runId: run.id, firstCorrect: false };
  const up = [{ itemId: "desc" }, { epoch: "desc" }] as const;
  const down = [{ itemId: "asc" }, { epoch: "asc" }] as const;
  const [index, prevHere, prevOther, nextHere, nextOther] = await Promise.all([
    g.ordinal ?? positionByCount(prisma, run.id, item.id, epoch),
    prisma.generation.findFirst({ where: { ...failed, itemId: item.id, epoch: { lt: epoch } }, select: ref, orderBy: [...up] }),
    prisma.generation.findFirst({ where: { ...failed, itemId: { lt: item.id } }, select: ref, orderBy: [...up] }),
    prisma.generation.findFirst({ where: { ...failed, itemId: item.id, epoch: { gt: epoch } }, select: ref, orderBy: [...down] }),
    prisma.generation.findFirst({ where: { ...failed, itemId: { gt: item.id } }, select: ref, orderBy: [...down] }),
  ]);
  const prev = prevHere ?? prevOther;
  const next = nextHere ?? nextOther;

  return {
    run: {
      key: run.key,
      model: run.model.name,
      benchmark: run.benchmark,
      variant: run.variant.name,
      hasSteps: run.hasSteps,
      selfConditioning: run.selfConditioning,
    },
    item: { id: item.key, length: item.length, input, inducedErrorRate: item.inducedErrorRate },
    epoch,
    epochs: gens.map((e) => e.epoch),
    output,
    firstAnswer: g.firstAnswer,
    lastAnswer: g.lastAnswer,
    firstCorrect: g.firstCorrect,
    lastCorrect: g.lastCorrect,
    firstDivergence: g.firstDivergence,
    divergenceKind: g.divergenceKind,
    modes: decodeModes(g.modes),
    clean: g.clean,
    usage: { promptTokens: g.promptTokens, completionTokens: g.completionTokens, latencyMs: g.latencyMs, costUsd: g.costUsd },
    analysis,
    steps: trace.map((s) => ({
      ...s,
      turn: turns?.get(s.step) ?? null,
      operation: ops.get(s.step) ?? null,
      operands: s.status === "correct" ? null : ownOperands(ops.get(s.step), trace),
    })),
    position: { index, total: run.generationCount },
    prevFailed: prev ? { itemId: prev.itemKey, epoch: prev.epoch } : null,
    nextFailed: next ? { itemId: next.itemKey, epoch: next.epoch } : null,
  };
}
