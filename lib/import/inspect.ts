// Inspect AI `.eval` logs: a ZIP with header.json (eval spec, results), summaries.json and
// samples/{id}_epoch_{n}.json. Samples are read one member at a time. `attachment://<hash>`
// strings anywhere in a sample are replaced by the sample's `attachments[hash]`. One run per
// log; correctness comes from a scorer (--metric, default the first one): "C" or a value ≥ 1
// or true is correct. Inspect samples carry no step trace, so these are given-outcome items.
import type { RunHeader } from "../analysis/types";
import { givenOutcome } from "../analysis/outcome";
import type { ReaderEvent } from "../native/reader";
import { describe, isNum, isObj, slug, type ImportContext } from "./context";
import { docLength } from "./lmeval";
import { ZipReader } from "./zip";

const SAMPLE = /^samples\/(.+)_epoch_(\d+)\.json$/;

async function readJson(zip: ZipReader, name: string): Promise<unknown> {
  const buf = await zip.read(name);
  try {
    return JSON.parse(buf.toString("utf8"));
  } catch (e) {
    throw new Error(`${name}: invalid JSON (${(e as Error).message})`);
  }
}

/** Replaces attachment:// references; returns the paths of unresolved ones. */
export function resolveAttachments(v: unknown, att: Record<string, unknown>, path = "", missing: string[] = [], depth = 0): unknown {
  if (depth > 100) return v;
  if (typeof v === "string") {
    if (!v.startsWith("attachment://")) return v;
    const hit = att[v.slice(13)];
    if (typeof hit === "string") return hit;
    missing.push(path || "-");
    return v;
  }
  if (Array.isArray(v)) return v.map((x, i) => resolveAttachments(x, att, `${path}[${i}]`, missing, depth + 1));
  if (isObj(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      out[k] = k === "attachments" ? x : resolveAttachments(x, att, path ? `${path}.${k}` : k, missing, depth + 1);
    return out;
  }
  return v;
}

/** The model's completion text: output.completion, else the first choice's text content. */
export function completionText(output: unknown): string | null {
  if (!isObj(output)) return null;
  if (typeof output.completion === "string" && output.completion !== "") return output.completion;
  const choice = Array.isArray(output.choices) ? output.choices[0] : null;
  const content = isObj(choice) && isObj(choice.message) ? choice.message.content : null;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const parts = content
      .filter((c) => isObj(c) && c.type === "text" && typeof c.text === "string")
      .map((c) => (c as { text: string }).text);
    return parts.length ? parts.join("\n") : null;
  }
  return null;
}

/** Inspect score value → correct? null when the value cannot be read. */
export function scoreCorrect(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  if (isNum(value)) return value >= 1 - 1e-9;
  if (typeof value === "string") {
    const v = value.trim().toUpperCase();
    if (v === "C" || v === "CORRECT") return true;
    if (v === "I" || v === "INCORRECT" || v === "P" || v === "PARTIAL" || v === "N" || v === "NOANSWER") return false;
  }
  return null;
}

export async function* inspectEvents(ctx: ImportContext): AsyncIterable<ReaderEvent> {
  const zip = await ZipReader.open(ctx.path);
  try {
    if (!zip.entries.has("header.json")) {
      return ctx.error(0, "header.json", "the log has no header.json (an unfinished log? Inspect writes it when the eval ends)");
    }
    const head = await readJson(zip, "header.json");
    const ev = isObj(head) && isObj(head.eval) ? head.eval : null;
    if (!ev) return ctx.error(0, "header.json: eval", 'header.json must hold the eval spec under "eval"');
    const task = typeof ev.task === "string" && ev.task ? ev.task : "inspect-task";
    const model = ctx.opts.model ?? (typeof ev.model === "string" && ev.model ? ev.model : null);
    if (!model) return ctx.error(0, "header.json: eval.model", "the log names no model: give --model");
    const results = isObj(head) && isObj(head.results) ? head.results : {};
    const scores = Array.isArray(results.scores) ? results.scores.filter(isObj) : [];
    let scorer: string | null =
      ctx.opts.metric ?? (scores.map((s) => s.scorer ?? s.name).find((s) => typeof s === "string") as string | undefined) ?? null;

    const names = [...zip.entries.keys()].filter((n) => SAMPLE.test(n));
    if (names.length === 0) return ctx.error(0, "samples/", "the log holds no samples");
    // summaries.json gives Inspect's own sample order; member order otherwise.
    const order = new Map<string, number>();
    if (zip.entries.has("summaries.json")) {
      const sums = await readJson(zip, "summaries.json");
      if (Array.isArray(sums)) sums.forEach((s, i) => isObj(s) && order.set(`samples/${String(s.id)}_epoch_${String(s.epoch)}.json`, i));
    }
    names.sort((a, b) => (order.get(a) ?? 1e12) - (order.get(b) ?? 1e12) || a.localeCompare(b));

    const header: RunHeader = {
      key: ctx.opts.key ?? `inspect__${slug(model)}__${slug(task)}__${slug(String(ev.eval_id ?? ev.run_id ?? ev.task_id ?? "log"))}`,
      model: { name: model },
      benchmark: "generic",
      variant: {
        name: `inspect-${task}`,
        task,
        ...(isObj(ev.dataset) && typeof ev.dataset.name === "string" ? { dataset: ev.dataset.name } : {}),
      },
      config: {
        scorer,
        status: isObj(head) ? (head.status ?? null) : null,
        ...(isObj(ev.config) ? { eval_config: ev.config } : {}),
        ...(isObj(ev.task_args) ? { task_args: ev.task_args } : {}),
      },
      source: {
        format: "inspect-eval",
        harness: "inspect_ai",
        ...(isObj(head) && head.version !== undefined ? { log_version: head.version } : {}),
      },
      created_at: typeof ev.created === "string" ? ev.created : null,
    };
    const run = ctx.run(header);
    if (!run) return;
    yield run;

    for (const name of names) {
      const raw = await readJson(zip, name);
      ctx.progress.bytes = Math.min(ctx.size, ctx.progress.bytes + (zip.entries.get(name)?.compressedSize ?? 0));
      ctx.progress.lines++;
      if (!isObj(raw)) {
        ctx.error(0, name, `a sample must be a JSON object (got ${describe(raw)})`);
        continue;
      }
      const att = isObj(raw.attachments) ? raw.attachments : {};
      const missing: string[] = [];
      const s = resolveAttachments(raw, att, "", missing) as Record<string, unknown>;
      if (missing.length) {
        ctx.error(
          0,
          `${name}: ${missing[0]}`,
          `attachment reference not found in the sample's attachments${missing.length > 1 ? ` (and ${missing.length - 1} more)` : ""}`,
        );
        continue;
      }
      const sc = isObj(s.scores) ? s.scores : null;
      if (!sc || Object.keys(sc).length === 0) {
        ctx.error(0, `${name}: scores`, "the sample has no scores (was it scored?)");
        continue;
      }
      scorer ??= Object.keys(sc)[0];
      const score = sc[scorer];
      if (!isObj(score)) {
        ctx.error(0, `${name}: scores.${scorer}`, `no score from scorer '${scorer}' (scorers: ${Object.keys(sc).join(", ")})`);
        continue;
      }
      const correct = scoreCorrect(score.value);
      if (correct === null) {
        ctx.error(
          0,
          `${name}: scores.${scorer}.value`,
          `cannot tell correct from ${describe(score.value)} (expected C/I, a number or true/false)`,
        );
        continue;
      }
      const m = SAMPLE.exec(name)!;
      const epochNum = isNum(s.epoch) ? s.epoch : Number(m[2]);
      const text = completionText(s.output);
      const answer = typeof score.answer === "string" ? score.answer : text;
      const usage = isObj(s.output) && isObj(s.output.usage) ? s.output.usage : {};
      const length = docLength(s.metadata);
      const item = {
        id: String(s.id ?? m[1]),
        length,
        epoch: Math.max(0, Math.floor(epochNum) - 1), // Inspect counts epochs from 1
        input: { input: s.input ?? null, target: s.target ?? null, metadata: s.metadata ?? null },
        output: text,
        answer,
        usage: {
          ...(isNum(usage.input_tokens) ? { prompt_tokens: usage.input_tokens } : {}),
          ...(isNum(usage.output_tokens) ? { completion_tokens: usage.output_tokens } : {}),
        },
        latency_ms: isNum(s.total_time) ? Math.round(s.total_time * 1000) : null,
        metadata: { scorer, score: score.value, explanation: typeof score.explanation === "string" ? score.explanation : null },
      };
      const g = ctx.generation(item, givenOutcome({ length, correct, answer: answer && answer.trim() ? answer : null }), 0, name);
      if (g) yield g;
    }
  } finally {
    await zip.close();
  }
}
