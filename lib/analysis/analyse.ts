// Entry point of the per-generation analysis: dispatches on the benchmark, validates the item's
// semantics and returns either the analysis or the field errors (nothing is thrown for bad data).
import { encodeModes } from "./failure-modes";
import { STATUS_LETTER, type FieldError, type GenerationAnalysis, type GenerationSummary, type NativeItem, type RunHeader } from "./types";
import { match, toleranceFromConfig, DEFAULT_TOLERANCE, type Tolerance } from "./numbers";
import { readProcedure, referenceTrace } from "./arith";
import { parseAnswers, parseClaims } from "./arith-parse";
import { alignArith } from "./arith-align";
import { analyseMultiOrSingle, readDictProblem } from "./dictsum";
import { analyseSelfConditioning, isSelfConditioning } from "./dictsum-selfcond";
import { analyseGeneric } from "./generic";

export type AnalysisResult = { ok: true; analysis: GenerationAnalysis } | { ok: false; errors: FieldError[] };

/** Thrown by analyseItem for invalid input; `errors` name the fields. */
export class InvalidItemError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(errors.map((e) => `${e.field}: ${e.message}`).join("; "));
    this.name = "InvalidItemError";
  }
}

export function runTolerance(header: RunHeader): Tolerance {
  try {
    return toleranceFromConfig(header.config);
  } catch {
    return DEFAULT_TOLERANCE; // the run line was validated already; stay total here
  }
}

/** Validates and analyses one generation. Never throws for bad data: returns the errors instead. */
export function tryAnalyseItem(header: RunHeader, item: NativeItem): AnalysisResult {
  const tol = runTolerance(header);
  let r: { analysis: GenerationAnalysis | null; errors: FieldError[] };
  switch (header.benchmark) {
    case "procedural-arith":
      r = analyseArithItem(header, item, tol);
      break;
    case "dict-sum":
      r = analyseDictItem(header, item, tol);
      break;
    case "generic":
      r = analyseGeneric(item, tol);
      break;
    default:
      r = { analysis: null, errors: [{ field: "benchmark", message: `unknown benchmark '${String(header.benchmark)}'` }] };
  }
  const errors = [...r.errors];
  if (r.analysis && item.length > 0 && item.length !== r.analysis.length) {
    errors.push({ field: "length", message: `length ${item.length} does not match the item (${r.analysis.length} steps)` });
  }
  if (errors.length || !r.analysis) return { ok: false, errors };
  return { ok: true, analysis: r.analysis };
}

/** Like tryAnalyseItem, but throws InvalidItemError for invalid input. */
export function analyseItem(header: RunHeader, item: NativeItem): GenerationAnalysis {
  const r = tryAnalyseItem(header, item);
  if (!r.ok) throw new InvalidItemError(r.errors);
  return r.analysis;
}

/** The run's declared look-back (variant.lookback), which a procedure's operands must respect; null when none. */
export function arithLookback(header: RunHeader): number | null {
  const lb = header.variant.lookback;
  return typeof lb === "number" && Number.isInteger(lb) && lb > 0 ? lb : null;
}

function analyseArithItem(header: RunHeader, item: NativeItem, tol: Tolerance) {
  const { proc, errors } = readProcedure(item.input, arithLookback(header));
  if (!proc) return { analysis: null, errors };
  const { trace, errors: execErrors } = referenceTrace(proc);
  if (!trace || errors.length) return { analysis: null, errors: [...errors, ...execErrors] };
  const refErrors = checkGivenReference(item, trace, tol, (i) => `S${i + 1}`);
  if (refErrors.length) return { analysis: null, errors: refErrors };
  if (Array.isArray(item.output))
    return { analysis: null, errors: [{ field: "output", message: "a procedural-arith generation is one text, not an array" }] };
  const text = item.output ?? "";
  return { analysis: alignArith(proc, trace, parseClaims(text), parseAnswers(text), tol), errors: [] };
}

function analyseDictItem(header: RunHeader, item: NativeItem, tol: Tolerance) {
  const { problem, errors } = readDictProblem(header, item);
  if (!problem) return { analysis: null, errors };
  if (isSelfConditioning(header, item)) {
    const r = analyseSelfConditioning(header, item, problem);
    // A self-conditioning item's `reference` may be the true running sums or the one target answer.
    if (r.analysis && item.reference) {
      const target = r.analysis.turns?.[0]?.expected ?? 0;
      const want = item.reference.length === 1 ? [target] : problem.sums;
      const e = checkGivenReference(item, want, tol, (i) => (want.length === 1 ? "target-turn answer" : `running sum ${i + 1}`));
      if (e.length) return { analysis: null, errors: e };
    }
    return r;
  }
  const refErrors = checkGivenReference(item, problem.sums, tol, (i) => `running sum after step ${i + 1}`);
  if (refErrors.length) return { analysis: null, errors: refErrors };
  return analyseMultiOrSingle(header, item, problem);
}

/** A `reference` given in the file must agree with the recomputed one (number tolerance). */
function checkGivenReference(item: NativeItem, recomputed: number[], tol: Tolerance, name: (i: number) => string): FieldError[] {
  const given = item.reference;
  if (!given) return [];
  if (given.length !== recomputed.length) {
    return [{ field: "reference", message: `reference has ${given.length} values, the recomputed one ${recomputed.length}` }];
  }
  const errors: FieldError[] = [];
  given.forEach((g, i) => {
    if (typeof g !== "number" || !match(g, recomputed[i], tol)) {
      errors.push({
        field: `reference[${i}]`,
        message: `does not match the recomputed ${name(i)} (given ${JSON.stringify(g)}, recomputed ${recomputed[i]})`,
      });
    }
  });
  return errors;
}

/** Cluster key for the hierarchical bootstrap: the item's own variant, when it names one. */
function clusterOf(item: Pick<NativeItem, "metadata" | "input">): string | null {
  const m = item.metadata;
  if (typeof m === "object" && m !== null && !Array.isArray(m)) {
    const o = m as Record<string, unknown>;
    for (const k of ["variant", "cluster", "task_family"]) {
      const v = o[k];
      if (typeof v === "string" || typeof v === "number") return String(v);
    }
  }
  const v = item.input.variant;
  return typeof v === "string" || typeof v === "number" ? String(v) : null;
}

const finiteOrNull = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** What a generation's summary takes from what its analysis found (or the stored row holds). */
export type AnalysedSummaryFields = Pick<
  GenerationSummary,
  "length" | "firstCorrect" | "lastCorrect" | "firstDivergence" | "statuses" | "modes" | "selfConditioning" | "clean" | "exactStep"
>;

/**
 * A generation's summary from its item line (key, bootstrap cluster, usage) and its analysed
 * fields, as one object literal: a load builds one per generation on its busier thread, and
 * the same object spread together took ~25 µs more each (docs/performance.md, "Load").
 */
export function summaryOf(
  item: Pick<NativeItem, "id" | "epoch" | "metadata" | "input" | "usage" | "latency_ms" | "cost_usd">,
  a: AnalysedSummaryFields,
): GenerationSummary {
  return {
    itemKey: item.id,
    epoch: item.epoch,
    cluster: clusterOf(item),
    promptTokens: finiteOrNull(item.usage?.prompt_tokens),
    completionTokens: finiteOrNull(item.usage?.completion_tokens),
    latencyMs: finiteOrNull(item.latency_ms),
    costUsd: finiteOrNull(item.cost_usd),
    length: a.length,
    firstCorrect: a.firstCorrect,
    lastCorrect: a.lastCorrect,
    firstDivergence: a.firstDivergence,
    statuses: a.statuses,
    modes: a.modes,
    selfConditioning: a.selfConditioning,
    clean: a.clean,
    exactStep: a.exactStep,
  };
}

/** Reference steps a generation adds to the progress count. */
export function progressSteps(a: GenerationAnalysis): number {
  return a.hasSteps ? a.length : 0;
}

/** One letter per step (STATUS_LETTER), as Generation.statuses and the summaries hold them; "" without steps. */
export function statusLetters(analysis: Pick<GenerationAnalysis, "hasSteps" | "steps">): string {
  if (!analysis.hasSteps) return "";
  let letters = "";
  for (const s of analysis.steps) letters += STATUS_LETTER[s.status];
  return letters;
}

export function summarise(analysis: GenerationAnalysis, item: NativeItem): GenerationSummary {
  const summary = summaryOf(item, {
    length: analysis.length,
    firstCorrect: analysis.firstCorrect,
    lastCorrect: analysis.lastCorrect,
    firstDivergence: analysis.firstDivergence,
    statuses: statusLetters(analysis),
    modes: encodeModes(analysis.modes),
    selfConditioning: analysis.selfConditioning,
    clean: analysis.clean,
    exactStep: analysis.exactStep,
  });
  // imported items only (lib/analysis/outcome.ts): exact length and weight for the length fit
  if (analysis.lengthValue != null) summary.lengthValue = analysis.lengthValue;
  if (analysis.weight != null) summary.weight = analysis.weight;
  return summary;
}
