// Loads the example runs (tests/fixtures/examples) through the pure pipeline (NativeReader →
// summarise), for the analysis tests.
import fs from "node:fs";
import path from "node:path";
import type { GenerationAnalysis, GenerationSummary, LineError, NativeItem, RunHeader } from "../../lib/analysis/types";
import { summarise } from "../../lib/analysis/analyse";
import { NativeReader } from "../../lib/native/reader";

import { EXAMPLES } from "../helpers/shared-data";

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
        run.summaries.push(summarise(e.analysis, e.item, e.header));
      }
    });
  reader.end();
  return { runs, errors: reader.errors };
}

export const readJson = <T = any>(rel: string): T => JSON.parse(fs.readFileSync(path.join(EXAMPLES, rel), "utf8"));

export interface IndexEntry {
  run: string;
  metrics: string;
  detail: string;
  file: string;
}
export const expectedIndex = (): IndexEntry[] => readJson<{ runs: IndexEntry[] }>("expected/index.json").runs;
