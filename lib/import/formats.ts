// The formats `stepwise import` reads, apart from the options' schema (lib/import/options.ts):
// the import thread names them without loading zod, whose ~90 ms start would delay its first
// sample (docs/performance.md, "Importers").

export const IMPORT_FORMATS = ["auto", "selfcond", "eval-steps", "experiment-results", "inspect", "lm-eval", "metr"] as const;
export type ImportFormat = Exclude<(typeof IMPORT_FORMATS)[number], "auto">;

export const FORMAT_LABEL: Record<ImportFormat, string> = {
  selfcond: "self-conditioning reproduction JSON",
  "eval-steps": "measuring-execution eval_step_results.json",
  "experiment-results": "measuring-execution experiment_results.json",
  inspect: "Inspect AI .eval log",
  "lm-eval": "lm-evaluation-harness samples JSONL",
  metr: "METR runs JSONL",
};
