// Self-conditioning reproduction JSON (SPEC §7; ../shared/realdata/illusion-repro-ping98k):
// {"experiment":"self_conditioning","config":{…},"data":{"<rate>":{"accuracy","samples":[…]}}}.
// One file → one dict-sum self-conditioning run holding every rate. The samples carry the
// harness's `correct` flag but not the dictionary or key sequence, so each becomes a
// given-outcome generation (lib/analysis/outcome.ts) at target turn = num_turns.
import type { RunHeader, StepStatus } from "../analysis/types";
import { givenOutcome } from "../analysis/outcome";
import type { ReaderEvent } from "../native/reader";
import { describe, isInt, isNum, isObj, slug, stem, type ImportContext } from "./context";

/**
 * Model name from the file name `self_conditioning_<P>B[_<A>A]_<Q>Q.json`: Qwen3.5-<P>B
 * [-A<A>B]-Q<Q> (the reproduction ran Qwen3.5 models under llama.cpp). The 80B-A3B file is
 * Qwen3-Coder-Next, the only model of another line there, run at one quantisation: it is
 * named Qwen3-Coder-Next-80B (its quantisation stays in the run config).
 */
export function modelFromFileName(file: string): { name: string; family: string; params_b: number; quant: string | null } | null {
  const m = /self_conditioning_(\d+(?:\.\d+)?)B(?:_(\d+(?:\.\d+)?)A)?(?:_(\d+)Q)?$/i.exec(stem(file));
  if (!m) return null;
  const [, p, a, q] = m;
  const quant = q ? `Q${q}` : null;
  if (p === "80" && a === "3") return { name: "Qwen3-Coder-Next-80B", family: "Qwen3-Coder-Next", params_b: 80, quant };
  const name = `Qwen3.5-${p}B${a ? `-A${a}B` : ""}${quant ? `-${quant}` : ""}`;
  return { name, family: "Qwen3.5", params_b: Number(p), quant };
}

export function* selfcondEvents(ctx: ImportContext, doc: Record<string, unknown>): Generator<ReaderEvent> {
  const cfg = doc.config;
  if (!isObj(cfg)) return ctx.error(0, "config", `config must be an object (got ${describe(cfg)})`);
  const turns = cfg.num_turns ?? 100;
  const K = cfg.working_capacity ?? 1;
  if (!isInt(turns) || turns < 1) return ctx.error(0, "config.num_turns", `num_turns must be a positive integer (got ${describe(turns)})`);
  if (!isInt(K) || K < 1)
    return ctx.error(0, "config.working_capacity", `working_capacity must be a positive integer (got ${describe(K)})`);
  const data = doc.data;
  if (!isObj(data) || Object.keys(data).length === 0)
    return ctx.error(0, "data", `data must be an object with one entry per induced error rate (got ${describe(data)})`);

  const fromFile = modelFromFileName(ctx.file);
  if (!ctx.opts.model && !fromFile) {
    return ctx.error(0, "-", "cannot tell the model from the file name (expected self_conditioning_<P>B[_<A>A]_<Q>Q.json): give --model");
  }
  const model = ctx.opts.model
    ? { name: ctx.opts.model }
    : { name: fromFile!.name, family: fromFile!.family, params_b: fromFile!.params_b };
  const dictSize = isInt(cfg.dict_size) ? cfg.dict_size : null;
  const header: RunHeader = {
    key: ctx.opts.key ?? `selfcond__${slug(model.name)}`,
    model,
    benchmark: "dict-sum",
    variant: { name: `selfcond-d${dictSize ?? "x"}-k${K}-t${turns}`, K, dict_size: dictSize, target_turn: turns, self_conditioning: true },
    config: { ...cfg, target_turn: turns, ...(fromFile?.quant && !ctx.opts.model ? { quantization: fromFile.quant } : {}) },
    source: { format: "self-conditioning-repro", file: stem(ctx.file) },
    created_at: null,
  };
  const run = ctx.run(header);
  if (!run) return;
  yield run;

  const L = turns * K;
  for (const [rateKey, entry] of Object.entries(data)) {
    const at = `data[${JSON.stringify(rateKey)}]`;
    const rate = Number(rateKey);
    if (rateKey.trim() === "" || !Number.isFinite(rate) || rate < 0 || rate > 1) {
      ctx.error(0, at, `the key must be an induced error rate in [0, 1] (got ${JSON.stringify(rateKey)})`);
      continue;
    }
    if (!isObj(entry) || !Array.isArray(entry.samples)) {
      ctx.error(0, `${at}.samples`, `samples must be an array (got ${describe(isObj(entry) ? entry.samples : entry)})`);
      continue;
    }
    let correct = 0;
    let valid = 0;
    for (const [i, s] of entry.samples.entries()) {
      const ev = sampleEvent(ctx, header, s, `${at}.samples[${i}]`, { rate, rateKey, turns, L });
      if (ev) {
        valid++;
        if (ev.kind === "generation" && ev.analysis.firstCorrect) correct++;
        ctx.progress.lines++;
        yield ev;
      }
    }
    // The file's own accuracy must be what its samples say: otherwise the run would not be it.
    const acc = entry.accuracy;
    if (acc !== undefined && valid === entry.samples.length) {
      if (!isNum(acc)) ctx.error(0, `${at}.accuracy`, `accuracy must be a number (got ${describe(acc)})`);
      else if (valid > 0 && Math.abs(acc - correct / valid) > 1e-9) {
        ctx.error(0, `${at}.accuracy`, `accuracy ${acc} does not match the samples (${correct} of ${valid} correct)`);
      }
    }
  }
}

function sampleEvent(
  ctx: ImportContext,
  header: RunHeader,
  s: unknown,
  at: string,
  r: { rate: number; rateKey: string; turns: number; L: number },
): ReaderEvent | null {
  if (!isObj(s)) {
    ctx.error(0, at, `a sample must be an object (got ${describe(s)})`);
    return null;
  }
  const bad = (f: string, want: string) => (ctx.error(0, `${at}.${f}`, `${f} must be ${want} (got ${describe(s[f])})`), null);
  if (!isInt(s.sample_idx) || s.sample_idx < 0) return bad("sample_idx", "a non-negative integer");
  if (s.predicted !== null && !isInt(s.predicted)) return bad("predicted", "an integer or null");
  if (!isInt(s.expected_delta)) return bad("expected_delta", "an integer");
  if (!isInt(s.last_injected)) return bad("last_injected", "an integer");
  if (typeof s.correct !== "boolean") return bad("correct", "true or false");
  const predicted = s.predicted as number | null;
  const expected = s.last_injected + s.expected_delta;
  const status: StepStatus = s.correct ? "correct" : predicted === null ? "missing" : "slip";
  const answerText = predicted === null ? null : String(predicted);
  const analysis = givenOutcome({
    length: r.L,
    correct: s.correct,
    answer: answerText,
    selfConditioning: { inducedErrorRate: r.rate, targetTurn: r.turns },
    turn: { turn: r.turns, keys: [], values: [], expected, answer: predicted, answerText, status },
  });
  const item = {
    id: `rate-${r.rateKey}/sample-${s.sample_idx}`,
    length: r.L,
    epoch: 0,
    input: {
      induced_error_rate: r.rate,
      target_turn: r.turns,
      sample_idx: s.sample_idx,
      last_injected: s.last_injected,
      expected_delta: s.expected_delta,
      predicted,
      correct: s.correct,
    },
    output: null,
    answer: answerText,
  };
  return ctx.generation(item, analysis, 0, at);
}
