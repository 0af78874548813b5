// The demo store: five fictitious simulated models on the same generated datasets, small
// enough to load in seconds yet showing every view with every failure mode. All models see
// identical items per variant (same seed), so Compare pairs them item by item.

import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { generateRun, type GenerateOptionsInput } from "./dataset";
import { SIM_PROFILES } from "./simulate";

export const DEMO_CREATED_AT = "2026-06-01T12:00:00Z";
const DEMO_MODELS = ["alpha", "beta", "gamma", "delta", "epsilon"] as const;
const ARITH_LENGTHS = [5, 15, 25, 35, 55, 75, 95];

interface DemoVariant {
  /** which models run it */
  models: readonly (typeof DEMO_MODELS)[number][];
  options: Omit<GenerateOptionsInput, "simulate" | "runKey" | "createdAt">;
}

const VARIANTS: DemoVariant[] = [
  {
    models: DEMO_MODELS,
    options: { benchmark: "procedural-arith", lengths: ARITH_LENGTHS, itemsPerLength: 24, seed: 101, lookback: 3, inputRange: [1, 10] },
  },
  {
    models: DEMO_MODELS,
    options: { benchmark: "procedural-arith", lengths: ARITH_LENGTHS, itemsPerLength: 16, seed: 102, lookback: 5, inputRange: [0, 1] },
  },
  {
    models: ["alpha", "gamma", "epsilon"],
    options: {
      benchmark: "procedural-arith",
      lengths: [5, 15, 25, 35],
      itemsPerLength: 12,
      seed: 103,
      lookback: 3,
      inputRange: [10, 100],
      ops: "+",
    },
  },
  {
    models: DEMO_MODELS,
    options: { benchmark: "dict-sum", lengths: [10, 30, 60], itemsPerLength: 16, seed: 201, dictSize: 100, k: 1 },
  },
  {
    models: ["alpha", "beta", "epsilon"],
    options: { benchmark: "dict-sum", lengths: [20, 40], itemsPerLength: 12, seed: 201, dictSize: 100, k: 2 },
  },
  {
    models: ["alpha", "gamma", "delta"],
    options: { benchmark: "dict-sum", lengths: [10, 20, 40], itemsPerLength: 12, seed: 201, dictSize: 100, k: 1, singleTurn: true },
  },
  {
    models: DEMO_MODELS,
    options: {
      benchmark: "dict-sum",
      selfConditioning: true,
      rates: [0, 0.25, 0.5, 0.75, 1],
      targetTurn: 100,
      itemsPerLength: 30,
      seed: 301,
      dictSize: 100,
      k: 1,
    },
  },
];

/** Options of every demo run, in file order. */
export function demoRunOptions(): GenerateOptionsInput[] {
  const out: GenerateOptionsInput[] = [];
  for (const v of VARIANTS) {
    for (const m of v.models) {
      const profile = SIM_PROFILES[m];
      const { header } = generateRun({ ...v.options, simulate: m });
      const variantName = header.variant.name;
      out.push({
        ...v.options,
        simulate: m,
        createdAt: DEMO_CREATED_AT,
        runKey: `${(profile.model?.name ?? m).toLowerCase()}__${variantName}__demo`,
      });
    }
  }
  return out;
}

/** The demo file's JSONL lines (without newline): each run line followed by its items. */
export function* demoRuns(): Generator<string> {
  for (const opts of demoRunOptions()) {
    const { header, items } = generateRun(opts);
    yield JSON.stringify(header);
    for (const it of items()) yield JSON.stringify(it);
  }
}

/** Joins lines into ~64 KB chunks: far fewer writes, still bounded memory. */
export function* chunkLines(lines: Iterable<string>, chunkChars = 1 << 16): Generator<string> {
  let buf: string[] = [];
  let size = 0;
  for (const l of lines) {
    buf.push(l);
    size += l.length + 1;
    if (size >= chunkChars) {
      yield buf.join("\n") + "\n";
      buf = [];
      size = 0;
    }
  }
  if (buf.length) yield buf.join("\n") + "\n";
}

/** Writes the demo JSONL file; returns how many runs and generations it holds. */
export async function writeDemoFile(path: string): Promise<{ runs: number; generations: number }> {
  let runs = 0;
  let generations = 0;
  const counted = function* () {
    for (const l of demoRuns()) {
      if (l.startsWith('{"type":"run"')) runs++;
      else generations++;
      yield l;
    }
  };
  await pipeline(Readable.from(chunkLines(counted())), createWriteStream(path));
  return { runs, generations };
}
