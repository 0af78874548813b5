// `stepwise generate`: writes a generated dataset (or simulated run, or the demo file) as
// native JSONL, streamed with backpressure so any size fits in constant memory.

import { createWriteStream, rmSync } from "node:fs";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { ZodError } from "zod";
import { generateDataset, type GenerateOptionsInput } from "../../generate/dataset";
import { chunkLines, demoRuns } from "../../generate/demo";
import { SIM_PROFILES } from "../../generate/simulate";

export const GENERATE_HELP = `Usage: stepwise generate --benchmark procedural-arith|dict-sum [options] --out FILE|-
       stepwise generate --demo --out FILE|-

Writes native JSONL (a run line, then item lines). Same options and seed → identical bytes.
Without --simulate the items have no output: a dataset for \`stepwise run\`.

Common:
  --benchmark NAME        procedural-arith or dict-sum
  --lengths L1,L2,...     length grid (steps per item); not needed with --self-conditioning
  --items-per-length N    items per length (per rate with --self-conditioning) [10]
  --seed S                integer seed [0]
  --out FILE|-            output file, - for stdout (required)
procedural-arith:
  --lookback N            operands come from the N previous variables [3]
  --input-range LO,HI     range of the inputs x and y [1,10]
  --ops MODE              mixed, +, -, * or / [mixed]
  --decimals N            decimals of x and y, 0 for integers [3]
dict-sum:
  --dict-size N           words in the dictionary [100]
  --value-range LO,HI     integer values of the words [-99,99]
  --k N                   keys per turn [1]
  --single-turn           one prompt, answer is a comma-separated list of sums
  --self-conditioning     history injection sweep (items carry input.shown)
  --rates R1,R2,...       induced error rates [0,0.25,0.5,0.75,1]
  --target-turn T         the turn the model answers [100]
Run line and simulation:
  --model NAME            model name in the run line
  --run-key KEY           run key (default derived from model, variant and seed)
  --variant-name NAME     variant name (default derived from the parameters)
  --created-at ISO        created_at of the run line [null, so output stays reproducible]
  --simulate PROFILE      add outputs from a simulated model: ${Object.keys(SIM_PROFILES).join(", ")}
  --simulate-p P          simulated model with step reliability P and no other failures
  --epochs N              generations per item (simulated only) [1]
  --with-reference        add each item's reference trace
  --demo                  write the demo store content (several simulated runs)
  -h, --help              show this help
`;

const OPTIONS = {
  benchmark: { type: "string" },
  lengths: { type: "string" },
  "items-per-length": { type: "string" },
  seed: { type: "string" },
  lookback: { type: "string" },
  "input-range": { type: "string" },
  ops: { type: "string" },
  decimals: { type: "string" },
  "dict-size": { type: "string" },
  "value-range": { type: "string" },
  k: { type: "string" },
  "single-turn": { type: "boolean" },
  "self-conditioning": { type: "boolean" },
  rates: { type: "string" },
  "target-turn": { type: "string" },
  model: { type: "string" },
  "run-key": { type: "string" },
  "variant-name": { type: "string" },
  "created-at": { type: "string" },
  simulate: { type: "string" },
  "simulate-p": { type: "string" },
  epochs: { type: "string" },
  "with-reference": { type: "boolean" },
  demo: { type: "boolean" },
  out: { type: "string", short: "o" },
  help: { type: "boolean", short: "h" },
} as const;

/** Option key of the schema → the flag users typed, so errors name the flag. */
const FLAG_OF: Record<string, string> = {
  benchmark: "--benchmark",
  lengths: "--lengths",
  itemsPerLength: "--items-per-length",
  seed: "--seed",
  lookback: "--lookback",
  inputRange: "--input-range",
  ops: "--ops",
  decimals: "--decimals",
  dictSize: "--dict-size",
  valueRange: "--value-range",
  k: "--k",
  singleTurn: "--single-turn",
  selfConditioning: "--self-conditioning",
  rates: "--rates",
  targetTurn: "--target-turn",
  model: "--model",
  runKey: "--run-key",
  variantName: "--variant-name",
  createdAt: "--created-at",
  simulate: "--simulate",
  simulateP: "--simulate-p",
  epochs: "--epochs",
  withReference: "--with-reference",
};

class UsageError extends Error {}

function num(flag: string, text: string): number {
  const t = text.trim();
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t)) throw new UsageError(`${flag}: expected a number, got ${JSON.stringify(text)}`);
  return Number(t);
}

function list(flag: string, text: string): number[] {
  const parts = text.split(",").filter((p) => p.trim() !== "");
  if (parts.length === 0) throw new UsageError(`${flag}: expected a comma-separated list of numbers`);
  return parts.map((p) => num(flag, p));
}

function range(flag: string, text: string): [number, number] {
  const r = list(flag, text);
  if (r.length !== 2) throw new UsageError(`${flag}: expected LO,HI, got ${JSON.stringify(text)}`);
  return [r[0], r[1]];
}

function zodMessage(err: ZodError): string {
  return err.issues
    .map((i) => {
      const key = String(i.path[0] ?? "");
      const flag = FLAG_OF[key] ?? (key || "options");
      return `${flag}: ${i.message}`;
    })
    .join("\n");
}

/** Streams lines to a file or stdout with backpressure; never closes stdout. */
async function writeLines(lines: Iterable<string>, out: string): Promise<void> {
  const source = Readable.from(chunkLines(lines));
  if (out === "-") {
    const dest = process.stdout as unknown as Writable;
    try {
      await pipeline(source, dest, { end: false });
    } catch (e) {
      // `generate … --out - | head` closes the pipe early: the reader has what it wanted
      if ((e as NodeJS.ErrnoException).code !== "EPIPE") throw e;
    }
  } else {
    try {
      await pipeline(source, createWriteStream(out));
    } catch (e) {
      // a half-written dataset would look valid to a later `run`: remove it
      rmSync(out, { force: true });
      throw e;
    }
  }
}

/**
 * parseArgs takes `-99,99` after a flag for another option; glue negative numbers to their
 * flag (`--value-range=-99,99`) so the natural spelling works.
 */
function joinNegativeValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith("--") ? argv[i].slice(2) : null;
    const spec = name ? (OPTIONS as Record<string, { type: string }>)[name] : undefined;
    if (spec?.type === "string" && i + 1 < argv.length && /^-[\d.]/.test(argv[i + 1])) {
      out.push(`${argv[i]}=${argv[i + 1]}`);
      i++;
    } else out.push(argv[i]);
  }
  return out;
}

export async function generateCommand(argv: string[]): Promise<number> {
  let values: { [k: string]: string | boolean | undefined };
  try {
    values = parseArgs({ args: joinNegativeValues(argv), options: OPTIONS, allowPositionals: false, strict: true }).values;
  } catch (e) {
    process.stderr.write(`stepwise generate: ${(e as Error).message}\nTry --help.\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(GENERATE_HELP);
    return 0;
  }
  const out = values.out as string | undefined;
  try {
    if (!out) throw new UsageError("--out: required (a file path, or - for stdout)");
    if (values.demo) {
      await writeLines(demoRuns(), out);
      return 0;
    }
    const s = (k: string) => values[k] as string | undefined;
    const opts: { [k: string]: unknown } = {};
    if (s("benchmark") === undefined) throw new UsageError("--benchmark: required (procedural-arith or dict-sum)");
    opts.benchmark = s("benchmark");
    if (s("lengths") !== undefined) opts.lengths = list("--lengths", s("lengths")!);
    if (s("rates") !== undefined) opts.rates = list("--rates", s("rates")!);
    if (s("input-range") !== undefined) opts.inputRange = range("--input-range", s("input-range")!);
    if (s("value-range") !== undefined) opts.valueRange = range("--value-range", s("value-range")!);
    const numeric: [string, string][] = [
      ["items-per-length", "itemsPerLength"],
      ["seed", "seed"],
      ["lookback", "lookback"],
      ["decimals", "decimals"],
      ["dict-size", "dictSize"],
      ["k", "k"],
      ["target-turn", "targetTurn"],
      ["simulate-p", "simulateP"],
      ["epochs", "epochs"],
    ];
    for (const [flag, key] of numeric) if (s(flag) !== undefined) opts[key] = num(`--${flag}`, s(flag)!);
    const strings: [string, string][] = [
      ["ops", "ops"],
      ["model", "model"],
      ["run-key", "runKey"],
      ["variant-name", "variantName"],
      ["created-at", "createdAt"],
      ["simulate", "simulate"],
    ];
    for (const [flag, key] of strings) if (s(flag) !== undefined) opts[key] = s(flag);
    if (values["single-turn"]) opts.singleTurn = true;
    if (values["self-conditioning"]) opts.selfConditioning = true;
    if (values["with-reference"]) opts.withReference = true;

    // the generator validates on its first step; pull it before opening the output file
    const lines = generateDataset(opts as GenerateOptionsInput);
    const first = lines.next();
    const all = (function* () {
      if (!first.done) yield first.value;
      yield* lines;
    })();
    await writeLines(all, out);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`stepwise generate: ${e.message}\n`);
      return 2;
    }
    if (e instanceof ZodError) {
      process.stderr.write(`stepwise generate: ${zodMessage(e)}\n`);
      return 2;
    }
    process.stderr.write(`stepwise generate: ${(e as Error).message}\n`);
    return 1;
  }
}
