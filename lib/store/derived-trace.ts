import { tryAnalyseItem, statusLetters } from "../analysis/analyse";
import type { BenchmarkName, NativeItem, RunHeader } from "../analysis/types";
import { storedSteps, type StoredStep } from "./step-trace";

// The step trace of a generation whose run did not store it (step-trace.ts, storesStepTrace):
// the generation analysed again from what the store keeps, exactly as the load analysed it.

/** What the analysis reads of a run: its benchmark, variant (look-back) and config (tolerance). */
export interface StoredRunSettings {
  benchmark: string;
  variantJson: string;
  config: string;
}

const parseObject = (text: string): { [k: string]: unknown } => {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as { [k: string]: unknown }) : {};
  } catch {
    return {};
  }
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
