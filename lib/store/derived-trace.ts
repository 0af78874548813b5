import { tryAnalyseItem, statusLetters } from "../analysis/analyse";
import type { BenchmarkName, NativeItem, RunHeader, StepValue } from "../analysis/types";
import { parseJsonOr } from "../json";
import type { StepLike, StoredStep } from "./step-trace";

// The step trace of a generation whose run did not store it (storesStepTrace): the generation
// analysed again from what the store keeps, exactly as the load analysed it.

/**
 * Whether loads of this benchmark store each generation's step trace (lib/store/step-trace.ts).
 * A procedural-arith trace is a function of what the store keeps anyway (the item's input, the
 * output, the run's variant and tolerance) and is recomputed here when its one reader, the
 * trace diff of a generation, asks: writing it was a sixth of a load's time (docs/decisions.md,
 * "Arithmetic step traces are recomputed, not stored"). Other benchmarks' claimed steps can come
 * from the file or from another tool's grading, so theirs are stored.
 */
export const storesStepTrace = (benchmark: string): boolean => benchmark !== "procedural-arith";

/** The steps as decodeStepTrace(encodeStepTrace(steps)) gives them back, without the record. */
export function storedSteps(steps: readonly StepLike[]): StoredStep[] {
  const text = (v: StepValue | null | undefined): string | null => (v === null || v === undefined ? null : String(v));
  return steps.map((s, i) => ({
    step: i + 1,
    status: s.status,
    expected: String(s.expected),
    claimed: text(s.claimed),
    recomputed: text(s.recomputed),
    span: s.span ? [s.span[0], s.span[1]] : null,
  }));
}

/** What the analysis reads of a run: its benchmark, variant (look-back) and config (tolerance). */
export interface StoredRunSettings {
  benchmark: string;
  variantJson: string;
  config: string;
}

/** A stored JSON object column; {} for anything else (the run line was validated when loaded). */
const parseObject = (text: string): { [k: string]: unknown } => {
  const v = parseJsonOr<unknown>(text, {});
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as { [k: string]: unknown }) : {};
};

/**
 * The generation's steps, recomputed from its item's input and its output. `statuses` is the
 * Generation row's status letters, written by the load: a recomputed trace that disagrees
 * (a store loaded by a version that analysed otherwise) throws rather than show steps the
 * page's other figures were not computed from.
 */
export function derivedStepTrace(
  run: StoredRunSettings,
  item: { id: string; length: number; epoch: number; input: { [k: string]: unknown } },
  output: string,
  statuses: string,
): StoredStep[] {
  const variant = parseObject(run.variantJson);
  const header: RunHeader = {
    key: "",
    model: { name: "" },
    benchmark: run.benchmark as BenchmarkName,
    variant: { ...variant, name: typeof variant.name === "string" ? variant.name : "" },
    config: parseObject(run.config),
    source: null,
    created_at: null,
  };
  const native: NativeItem = { ...item, output };
  const r = tryAnalyseItem(header, native);
  if (!r.ok)
    throw new Error(`step trace: the stored item no longer analyses (${r.errors.map((e) => `${e.field}: ${e.message}`).join("; ")})`);
  if (statusLetters(r.analysis) !== statuses)
    throw new Error("step trace: the stored output analyses to other steps than the load recorded; load the run again");
  return storedSteps(r.analysis.steps);
}
