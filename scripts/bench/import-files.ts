// Files for the importer benchmark (scripts/bench/import-figures.ts), written from scratch in
// the shape the tools write them; the outcomes are simulated.
// - An Inspect AI `.eval` log as inspect_ai ≥ 0.3.206 writes it: a ZIP of zstd members
//   (method 93) with header.json, summaries.json,
//   _journal/start.json and samples/{id}_epoch_1.json, each sample with its messages, output,
//   events (sample_init, model, score) and the prompt and completion moved to `attachments`.
//   The scorer's metadata carries the step trace (reference, steps), so the imported run has
//   step analysis and its native export loads back with `stepwise ingest`.
// - measuring-execution's `eval_step_results.json` (multi-turn dict-sum) in its run folder.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { mulberry32 } from "../../lib/analysis/stats";
import { type Member, zipFile } from "./zip-file";

const MODEL = "anthropic/sim-claude-bench";
const LENGTHS = [5, 15, 25, 35, 45, 55, 65, 75, 85, 95];

const OPS = ["add", "subtract", "multiply by", "add the digit sum of"] as const;

/** One procedure: its prompt, reference values, and a simulated completion that slips with probability 1 − p per step. */
function procedure(r: () => number, n: number, length: number, p: number) {
  const start = 10 + Math.floor(r() * 90);
  const ops: [string, number][] = [];
  const reference: number[] = [];
  const steps: number[] = [];
  let v = start;
  let own = start;
  const lines: string[] = [];
  for (let i = 0; i < length; i++) {
    const op = OPS[Math.floor(r() * OPS.length)];
    const k = op === "multiply by" ? 2 + Math.floor(r() * 2) : 1 + Math.floor(r() * 99);
    const apply = (x: number) =>
      op === "add"
        ? x + k
        : op === "subtract"
          ? x - k
          : op === "multiply by"
            ? (x * k) % 100003
            : x + [...String(Math.abs(x))].reduce((s, d) => s + Number(d), 0);
    ops.push([op, k]);
    v = apply(v);
    own = apply(own);
    if (r() > p) own += 1 + Math.floor(r() * 9);
    reference.push(v);
    steps.push(own);
    lines.push(`Step ${i + 1}: ${op}${op === "add the digit sum of" ? " the value" : ` ${k}`}, the value is now ${own}.`);
  }
  const prompt =
    `Procedure ${n}. Start with the value ${start} and carry out the ${length} steps below in order, ` +
    `writing one line per step as "Step i: <operation>, the value is now <v>." and finish with "ANSWER: <v>".\n` +
    ops.map(([op, k], i) => `${i + 1}. ${op}${op === "add the digit sum of" ? " the value" : ` ${k}`}`).join("\n");
  const completion = `I will carry out the procedure one step at a time.\n${lines.join("\n")}\nANSWER: ${own}`;
  return { prompt, reference, steps, completion, answer: String(own), target: String(v) };
}

const md5 = (s: string) => createHash("md5").update(s).digest("hex");

function inspectSample(r: () => number, n: number) {
  const length = LENGTHS[n % LENGTHS.length];
  const id = `arith-${String(n).padStart(6, "0")}`;
  const pr = procedure(r, n, length, 0.98);
  const hIn = md5(pr.prompt);
  const hOut = md5(pr.completion);
  const inTok = Math.round(pr.prompt.length / 3.6);
  const outTok = Math.round(pr.completion.length / 3.6);
  const usage = {
    input_tokens: inTok,
    output_tokens: outTok,
    total_tokens: inTok + outTok,
    input_tokens_cache_read: 0,
    reasoning_tokens: 0,
  };
  const user = { id: `m-${n}-u`, role: "user", content: `attachment://${hIn}`, source: "input" };
  const assistant = {
    id: `m-${n}-a`,
    role: "assistant",
    content: [{ type: "text", text: `attachment://${hOut}` }],
    source: "generate",
    model: MODEL,
  };
  const output = {
    model: MODEL,
    choices: [{ message: assistant, stop_reason: "stop" }],
    completion: `attachment://${hOut}`,
    usage,
    time: 8.5,
  };
  const correct = pr.answer === pr.target;
  const score = {
    value: correct ? "C" : "I",
    answer: pr.answer,
    explanation: `attachment://${hOut}`,
    metadata: { reference: pr.reference, steps: pr.steps },
    history: [],
  };
  const t0 = 1759397400 + n * 3;
  const ts = (s: number) => new Date((t0 + s) * 1000).toISOString();
  return {
    id,
    epoch: 1,
    input: `attachment://${hIn}`,
    target: pr.target,
    messages: [user, assistant],
    output,
    scores: { match: score },
    metadata: { length, seed: n },
    store: {},
    events: [
      {
        timestamp: ts(0),
        working_start: 0,
        event: "sample_init",
        sample: { input: `attachment://${hIn}`, target: pr.target, id, metadata: { length, seed: n } },
        state: {
          messages: [user],
          tools: [],
          tool_choice: null,
          store: {},
          output: { model: MODEL, choices: [] },
          completed: false,
          metadata: { length, seed: n },
        },
      },
      {
        timestamp: ts(1),
        working_start: 0.01,
        event: "model",
        model: MODEL,
        input: [user],
        tools: [],
        tool_choice: "none",
        config: { max_tokens: 4096 },
        output,
        cache: null,
        call: null,
        working_time: 8.5,
      },
      { timestamp: ts(9), working_start: 8.6, event: "score", score, target: pr.target, intermediate: false },
    ],
    model_usage: { [MODEL]: usage },
    total_time: 8.7,
    working_time: 8.6,
    uuid: md5(`uuid-${n}`).slice(0, 22),
    error_retries: [],
    attachments: { [hIn]: pr.prompt, [hOut]: pr.completion },
  };
}

/** Writes an Inspect `.eval` log of `samples` samples (zstd members). */
export function writeInspectEval(file: string, samples: number, seed = 11): void {
  const r = mulberry32(seed); // deterministic: every run of the bench imports the same bytes
  const bodies = Array.from({ length: samples }, (_, n) => inspectSample(r, n));
  const correct = bodies.filter((b) => b.scores.match.value === "C").length;
  const evalSpec = {
    eval_id: "benchEval0001",
    run_id: "benchRun0001",
    created: "2025-10-02T09:30:00+00:00",
    task: "stepwise/arith_exec",
    task_id: "benchTask0001",
    task_version: 0,
    task_args: {},
    dataset: { name: "arith_exec", samples, sample_ids: [] },
    model: MODEL,
    model_args: {},
    config: { epochs: 1, max_tokens: 4096 },
    packages: { inspect_ai: "0.3.210" },
  };
  const header = {
    version: 2,
    status: "success",
    eval: evalSpec,
    plan: { name: "plan", steps: [{ solver: "generate", params: {} }], config: { max_tokens: 4096 } },
    results: {
      total_samples: samples,
      completed_samples: samples,
      scores: [
        { name: "match", scorer: "match", params: {}, metrics: { accuracy: { name: "accuracy", value: correct / samples, params: {} } } },
      ],
    },
    stats: { started_at: "2025-10-02T09:30:00+00:00", completed_at: "2025-10-02T13:10:00+00:00", model_usage: {} },
  };
  const members: Member[] = [
    { name: "_journal/start.json", data: Buffer.from(JSON.stringify({ version: 2, eval: evalSpec, plan: header.plan })) },
    ...bodies.map((b) => ({ name: `samples/${b.id}_epoch_1.json`, data: Buffer.from(JSON.stringify(b)) })),
    {
      name: "summaries.json",
      data: Buffer.from(
        JSON.stringify(
          bodies.map((b) => ({ id: b.id, epoch: 1, input: b.input, target: b.target, scores: { match: { value: b.scores.match.value } } })),
        ),
      ),
    },
    { name: "header.json", data: Buffer.from(JSON.stringify(header)) },
  ];
  zipFile(file, members);
}

/**
 * measuring-execution's `eval_step_results.json` for `instances` instances of `turns` turns of
 * K = 2 keys, in the harness's run folder under `dir` (the importer reads the model from it).
 */
export function writeEvalSteps(dir: string, instances: number, turns: number, seed = 13): string {
  const r = mulberry32(seed); // deterministic: every run of the bench imports the same bytes
  const words = Array.from({ length: 100 }, (_, i) => `w${md5(String(i)).slice(0, 5)}`);
  const dict = Object.fromEntries(words.map((w) => [w, Math.floor(r() * 199) - 99]));
  const K = 2;
  const data = Array.from({ length: instances }, () => Array.from({ length: turns * K }, () => words[Math.floor(r() * words.length)]));
  const own = new Array<number>(instances).fill(0);
  const truth = new Array<number>(instances).fill(0);
  const logs = Array.from({ length: turns }, (_, t) => ({
    step: t,
    timestamp: `2025-07-01T10:${String(Math.floor(t / 60)).padStart(2, "0")}:${String(t % 60).padStart(2, "0")}`,
    num_tokens_generated: 60 * instances,
    filled_history: false,
    aggregated_metrics: { index_accuracy: 0.9, prefix_accuracy: 0.8, step_accuracy: 0.9, nan_fraction: 0, invalid_fraction: 0 },
    instances: data.map((keys, i) => {
      const given = keys.slice(t * K, t * K + K);
      const values = given.map((k) => dict[k]);
      const sum = values.reduce((a, b) => a + b, 0);
      truth[i] += sum;
      own[i] += sum + (r() < 0.01 ? 1 + Math.floor(r() * 9) : 0);
      return {
        instance_id: i,
        input_given: given,
        input_values: values,
        raw_llm_output: `<think>The running total was ${own[i] - sum}; adding ${values.join(" and ")} gives ${own[i]}.</think>The total is now <answer>${own[i]}</answer>`,
        parsed_answer: own[i],
        expected_answer: truth[i],
        accuracies: { index_correct: Number(own[i] === truth[i]), prefix_correct: 1, step_correct: 1 },
        is_noop: false,
        is_invalid_format: false,
      };
    }),
  }));
  const runDir = path.join(dir, `2025-07-01_10-00-00_Sim-Bench-8B_multi-turn_no-cot_thinking_wc_${K}`);
  fs.mkdirSync(runDir, { recursive: true });
  const file = path.join(runDir, "eval_step_results.json");
  fs.writeFileSync(file, JSON.stringify({ step_logs: logs }));
  return file;
}

/** The bench's two import files in `dir`, written when missing: an Inspect log of `samples` samples and an eval_step_results.json. */
export function benchImportFiles(dir: string, samples: number): string[] {
  const evalFile = path.join(dir, `inspect-${samples}.eval`);
  if (!fs.existsSync(evalFile)) writeInspectEval(evalFile, samples);
  const steps = path.join(dir, "2025-07-01_10-00-00_Sim-Bench-8B_multi-turn_no-cot_thinking_wc_2", "eval_step_results.json");
  if (!fs.existsSync(steps)) writeEvalSteps(dir, 2000, 50);
  return [evalFile, steps];
}
