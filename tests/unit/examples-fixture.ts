// Loads the example runs (tests/fixtures/examples) through the pure pipeline (NativeReader →
// summarise), for the analysis tests.
import fs from "node:fs";
import path from "node:path";
import type { GenerationAnalysis, GenerationSummary, LineError, NativeItem, RunHeader, RunMetricsJson } from "../../lib/analysis/types";
import { summarise } from "../../lib/analysis/analyse";
import { NativeReader } from "../../lib/native/reader";

import { EXAMPLES } from "../helpers/fixtures";

export interface LoadedRun {
  header: RunHeader;
  generations: { item: NativeItem; analysis: GenerationAnalysis }[];
  summaries: GenerationSummary[];
}

export function readExample(file: string): { runs: Map<string, LoadedRun>; errors: LineError[] } {
  const reader = new NativeReader(file);
  const runs = new Map<string, LoadedRun>();
  fs.readFileSync(path.join(EXAMPLES, file), "utf8")
    .split("\n")
    .forEach((text, i) => {
      const e = reader.line(text, i + 1);
      if (e?.kind === "run") runs.set(e.header.key, { header: e.header, generations: [], summaries: [] });
      if (e?.kind === "generation") {
        const run = runs.get(e.header.key)!;
        run.generations.push({ item: e.item, analysis: e.analysis });
        run.summaries.push(summarise(e.analysis, e.item));
      }
    });
  reader.end();
  return { runs, errors: reader.errors };
}

export const readJson = <T>(rel: string): T => JSON.parse(fs.readFileSync(path.join(EXAMPLES, rel), "utf8"));

/** expected/<run>.detail.json: per-item expectations (examples/README.md). */
export interface ExpectedDetail {
  items: {
    id: string;
    length: number;
    first_answer: number | string | null;
    last_answer: number | string | null;
    first_correct: boolean | null;
    last_correct: boolean | null;
    first_divergence: number | null;
    modes: string[];
    statuses?: string;
    noop_turns?: number;
    invalid_turns?: number;
    revised_claims?: number;
    extra_claims?: number;
    expected?: number;
  }[];
  reliability_counts?: { locally_correct_steps: number; reference_steps: number };
  length_fit_coefficients?: { slope: number; intercept: number };
  exact_step_executions?: number;
  per_turn?: { K: number; turn_task_accuracy: number[]; turn_accuracy: number[] };
}

/** expected/selfcond-small.summary.json */
export interface ExpectedSelfcondSummary {
  self_conditioning: ({ run: string; model: string } & NonNullable<RunMetricsJson["self_conditioning"]>)[];
}

export interface IndexEntry {
  run: string;
  metrics: string;
  detail: string;
  file: string;
}
export const expectedIndex = (): IndexEntry[] => readJson<{ runs: IndexEntry[] }>("expected/index.json").runs;
