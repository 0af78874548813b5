// Fuzz every importer: truncated, byte-mutated and wrong-typed inputs must end in a clear error
// (naming the file) with the store unchanged, or in a correct import — never a crash or a hang.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { importFile } from "../../lib/import";
import { parseImportOptions } from "../../lib/import/options";
import { LM_STAMP, LM_TASK, lmEvalResults, lmEvalSamples, lmMultipleChoice, lmResults, metrJsonl } from "../fixtures/import/generate";
import { inspectLogBytes, sampleError } from "../fixtures/import/inspect-logs";
import { describeRealdata, REALDATA } from "../helpers/shared-data";
import { STORE_KINDS, storedMetrics } from "../helpers/stores";
import { storedStepCount } from "../helpers/steps";

const FIX = path.resolve(__dirname, "../fixtures/import");
const ME_DIR = "2025-07-01_10-00-00_Sim-Qwen-8B_multi-turn_no-cot_thinking_wc_2";

/** A small but real self-conditioning file: six samples per rate of the 27B reproduction. */
function smallSelfcond(): string {
  const doc = JSON.parse(fs.readFileSync(path.join(REALDATA, "illusion-repro-ping98k/self_conditioning_27B_3Q.json"), "utf8"));
  for (const e of Object.values(doc.data) as { accuracy: number; samples: { correct: boolean }[] }[]) {
    e.samples = e.samples.slice(0, 6);
    e.accuracy = e.samples.filter((s) => s.correct).length / 6;
  }
  return JSON.stringify(doc);
}

interface Case {
  name: string; // the file's name (some importers read the model or task from it)
  dir?: string; // a folder name (measuring-execution reads the model from it)
  base: Buffer;
  json: "doc" | "lines" | null; // how to apply wrong-typed mutations
  extra?: [string, string]; // a file beside it
}

const cases: Case[] = [
  {
    name: "eval_step_results.json",
    dir: ME_DIR,
    base: fs.readFileSync(path.join(FIX, "measuring", ME_DIR, "eval_step_results.json")),
    json: "doc",
  },
  { name: "experiment_results.json", base: fs.readFileSync(path.join(FIX, "measuring/experiment_results.json")), json: "doc" },
  { name: "log.eval", base: fs.readFileSync(path.join(FIX, "inspect/2025-09-01T12-00-00_arith-exec_deflate.eval")), json: null },
  {
    name: "log-zstd.eval",
    base: fs.readFileSync(path.join(FIX, "inspect/2025-09-01T12-00-00_arith-exec_zstd-attachments.eval")),
    json: null,
  },
  {
    name: `samples_${LM_TASK}_${LM_STAMP}.jsonl`,
    base: Buffer.from(lmEvalSamples(6)),
    json: "lines",
    extra: [`results_${LM_STAMP}.json`, lmEvalResults()],
  },
  { name: "all_runs.jsonl", base: Buffer.from(metrJsonl()), json: "lines" },
  {
    name: `samples_mc_${LM_STAMP}.jsonl`,
    base: Buffer.from(lmMultipleChoice(6)),
    json: "lines",
    extra: [`results_${LM_STAMP}.json`, lmResults("mc", "multiple_choice", { "acc,none": 0.5 })],
  },
  {
    name: "errored-dict.eval",
    base: inspectLogBytes({
      status: "error",
      listed: [{ name: "Problem Correctness", scorer: "step_scorer" }],
      samples: [1, 2, 3].map((i) =>
        i === 2
          ? { id: i, error: sampleError("RuntimeError: boom") }
          : {
              id: i,
              completion: "12",
              scores: { step_scorer: { value: { "Problem Correctness": i % 2, "Total Steps": 7 }, answer: "12" } },
            },
      ),
    }),
    json: null,
  },
];

const wrongValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 200 }),
  fc.double({ noNaN: false }),
  fc.string({ maxLength: 6 }),
  fc.constant([]),
  fc.constant({}),
  fc.constant("attachment://nope"),
);

/** Replaces the value at a random place of a JSON value (paths chosen by the random picks). */
function mutateJson(v: unknown, picks: number[], value: unknown, depth = 0): unknown {
  if (picks.length === 0 || depth > 12 || typeof v !== "object" || v === null) return value;
  const [p, ...rest] = picks;
  if (Array.isArray(v)) {
    if (v.length === 0) return value;
    const copy = [...v];
    copy[p % v.length] = mutateJson(v[p % v.length], rest, value, depth + 1);
    return copy;
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return value;
  const k = keys[p % keys.length];
  const copy: Record<string, unknown> = { ...(v as Record<string, unknown>) };
  if (rest.length === 0 && p % 5 === 0) delete copy[k];
  else copy[k] = mutateJson(copy[k], rest, value, depth + 1);
  return copy;
}

const mutation = fc.oneof(
  fc.record({ kind: fc.constant("truncate" as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({
    kind: fc.constant("bytes" as const),
    flips: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
  }),
  fc.record({
    kind: fc.constant("json" as const),
    picks: fc.array(fc.nat(1000), { minLength: 1, maxLength: 7 }),
    value: wrongValue,
    line: fc.nat(1000),
  }),
);

function apply(
  c: Case,
  m: fc.Arbitrary<unknown> extends never
    ? never
    : { kind: string; at?: number; flips?: [number, number][]; picks?: number[]; value?: unknown; line?: number },
): Buffer {
  if (m.kind === "truncate") return c.base.subarray(0, Math.floor(m.at! * c.base.length));
  if (m.kind === "bytes") {
    const b = Buffer.from(c.base);
    for (const [pos, byte] of m.flips!) b[Math.min(b.length - 1, Math.floor(pos * b.length))] = byte;
    return b;
  }
  if (c.json === "doc") return Buffer.from(JSON.stringify(mutateJson(JSON.parse(c.base.toString("utf8")), m.picks!, m.value)));
  if (c.json === "lines") {
    const lines = c.base.toString("utf8").trimEnd().split("\n");
    const i = m.line! % lines.length;
    lines[i] = JSON.stringify(mutateJson(JSON.parse(lines[i]), m.picks!, m.value));
    return Buffer.from(lines.join("\n") + "\n");
  }
  return c.base; // ZIPs: byte-level mutations only
}

async function fingerprint(store: Store) {
  const p = store.prisma;
  const runs = await p.run.findMany({ select: { key: true, metrics: true }, orderBy: { key: "asc" } });
  return {
    runs: runs.map((r) => r.key + r.metrics),
    counts: [await p.item.count(), await p.generation.count(), await storedStepCount(p)],
  };
}

const opts = parseImportOptions({});
if (!opts.ok) throw new Error(opts.error);

describe.each(STORE_KINDS.slice(0, 1))("import fuzz on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-fuzz-"));
  beforeAll(async () => {
    ({ store, drop } = await kind.create());
  });
  afterAll(async () => {
    await drop?.();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const fuzz = async (c: Case) => {
    const dir = path.join(tmp, c.dir ?? c.name.replace(/\W/g, "_"));
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, c.name);
    if (c.extra) fs.writeFileSync(path.join(dir, c.extra[0]), c.extra[1]);
    fs.writeFileSync(file, c.base);
    const clean = await importFile(store, file, file, opts.options);
    expect(clean.errors, "the unmutated file imports").toEqual([]);
    let failures = 0;
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => {
        fs.writeFileSync(file, apply(c, m as never));
        const before = await fingerprint(store);
        const started = Date.now();
        const r = await importFile(store, file, file, opts.options);
        expect(Date.now() - started).toBeLessThan(20_000);
        if (r.ok) {
          expect(r.runs.length).toBeGreaterThan(0);
          for (const run of r.runs) expect(await storedMetrics(store, run.key)).not.toBeNull();
        } else {
          failures++;
          expect(r.errors.length).toBeGreaterThan(0);
          for (const e of r.errors) {
            expect(e.file).toBe(file);
            expect(typeof e.field).toBe("string");
            expect(e.message.length).toBeGreaterThan(5);
            // a bug in an importer would surface as a JS error text; real problems are named
            expect(e.message).not.toMatch(
              /Cannot read propert|is not a function|is not iterable|Maximum call stack|TypeError|got undefined/,
            );
          }
          expect(await fingerprint(store)).toEqual(before);
        }
      }),
      { numRuns: Number(process.env.STEPWISE_FUZZ_RUNS ?? 40), seed: Number(process.env.STEPWISE_FUZZ_SEED ?? 4242) },
    );
    expect(failures).toBeGreaterThan(0); // the mutations do hit
  };
  const title = "%s: a clear error with nothing written, or a correct import";
  it.each(cases.map((c) => [c.name, c] as const))(title, (_n, c) => fuzz(c));
  describeRealdata("import fuzz of a real self-conditioning file", () => {
    const name = "self_conditioning_27B_3Q.json";
    it(title.replace("%s", name), () => fuzz({ name, base: Buffer.from(smallSelfcond()), json: "doc" }));
  });
});
