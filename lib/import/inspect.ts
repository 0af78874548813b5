// Inspect AI `.eval` logs (log format v2 and v3): a ZIP with header.json (eval spec, results),
// summaries.json and samples/{id}_epoch_{n}.json. Samples are read one member at a time.
// `attachment://<hash>` strings anywhere in a sample are replaced by the sample's
// `attachments[hash]`. One run per log; correctness comes from one score (scoreChoice):
// C/I, true/false or 0/1 (a continuous value only with --threshold). Samples that raised
// (`error`) are left out and counted, as Inspect's own metrics leave them out. A step trace in
// the score's or the sample's metadata, or in a JSON explanation, is aligned like a native
// generic item; otherwise the item is a given outcome.
import type { RunHeader } from "../analysis/types";
import { runTolerance } from "../analysis/analyse";
import type { ReaderEvent } from "../native/reader";
import { describe, isObj, slug, type ImportContext } from "./context";
import { errorMessage, resolveAttachments, scoredSample } from "./inspect-sample";
import { listedScores, scoreChoice, type ScoreChoice } from "./inspect-scores";
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

/** The ids shown after `skipped N errored samples`; all are kept in the run's source up to this many. */
const SHOWN_IDS = 10;
const KEPT_IDS = 1000;

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
    const evalModel = typeof ev.model === "string" && ev.model ? ev.model : null;
    const model = ctx.opts.model ?? evalModel;
    if (!model) return ctx.error(0, "header.json: eval.model", "the log names no model: give --model");
    const listed = listedScores(isObj(head) ? head.results : null);

    const names = [...zip.entries.keys()].filter((n) => SAMPLE.test(n));
    if (names.length === 0) return ctx.error(0, "samples/", "the log holds no samples");
    // summaries.json gives Inspect's own sample order; member order otherwise.
    const order = new Map<string, number>();
    if (zip.entries.has("summaries.json")) {
      const sums = await readJson(zip, "summaries.json");
      if (Array.isArray(sums)) sums.forEach((s, i) => isObj(s) && order.set(`samples/${String(s.id)}_epoch_${String(s.epoch)}.json`, i));
    }
    names.sort((a, b) => (order.get(a) ?? 1e12) - (order.get(b) ?? 1e12) || a.localeCompare(b));

    const source: Record<string, unknown> = {
      format: "inspect-eval",
      harness: "inspect_ai",
      ...(isObj(head) && head.version !== undefined ? { log_version: head.version } : {}),
      ...(isObj(ev.packages) && typeof ev.packages.inspect_ai === "string" ? { inspect_ai: ev.packages.inspect_ai } : {}),
    };
    const config: Record<string, unknown> = {
      scorer: null,
      status: isObj(head) ? (head.status ?? null) : null,
      ...(ctx.opts.threshold !== undefined ? { threshold: ctx.opts.threshold } : {}),
      ...(isObj(ev.config) ? { eval_config: ev.config } : {}),
      ...(isObj(ev.task_args) ? { task_args: ev.task_args } : {}),
    };
    const header: RunHeader = {
      key: ctx.opts.key ?? `inspect__${slug(model)}__${slug(task)}__${slug(String(ev.eval_id ?? ev.run_id ?? ev.task_id ?? "log"))}`,
      model: { name: model },
      benchmark: "generic",
      variant: {
        name: `inspect-${task}`,
        task,
        ...(isObj(ev.dataset) && typeof ev.dataset.name === "string" ? { dataset: ev.dataset.name } : {}),
      },
      config,
      source,
      created_at: typeof ev.created === "string" ? ev.created : null,
    };
    let choice: ScoreChoice | null = null;
    let runYielded = false;
    const errored: string[] = [];
    let completed = 0;
    let firstError = "";
    const tol = runTolerance(header);

    for (const name of names) {
      const raw = await readJson(zip, name);
      ctx.progress.bytes = Math.min(ctx.size, ctx.progress.bytes + (zip.entries.get(name)?.compressedSize ?? 0));
      ctx.progress.lines++;
      if (!isObj(raw)) {
        ctx.error(0, name, `a sample must be a JSON object (got ${describe(raw)})`);
        continue;
      }
      const m = SAMPLE.exec(name)!;
      const id = String(raw.id ?? m[1]);
      if (raw.error !== undefined && raw.error !== null) {
        if (ctx.opts.strict) {
          ctx.error(
            0,
            `${name}: error`,
            `the sample errored (${errorMessage(raw.error)}) and has no scores (--strict refuses errored samples)`,
          );
        } else {
          errored.push(id);
          firstError ||= errorMessage(raw.error);
        }
        continue;
      }
      const att = isObj(raw.attachments) ? raw.attachments : {};
      const missing = resolveAttachments(raw, att);
      const s = raw;
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
      if (!choice) {
        const c = scoreChoice(ctx.opts.metric, listed, sc);
        if (typeof c === "string") return ctx.error(0, `${name}: scores`, c);
        choice = c;
        config.scorer = c.scorer;
        if (c.key !== null) config.score_key = c.key;
      }
      if (!runYielded) {
        const run = ctx.run(header);
        if (!run) return;
        yield run;
        runYielded = true;
      }
      const mapped = scoredSample(ctx, name, s, sc, choice, { id, epoch: Number(m[2]), tol, model: evalModel ?? model });
      if (mapped === "stop") return; // the same error for every sample: one message is enough
      if (!mapped) continue;
      completed++;
      const g = ctx.generation(mapped.item, mapped.analysis, 0, name);
      if (g) yield g;
    }
    if (errored.length) {
      const shown = errored.slice(0, SHOWN_IDS).join(", ") + (errored.length > SHOWN_IDS ? ", …" : "");
      if (completed === 0 && !ctx.failed) {
        ctx.error(
          0,
          "samples/",
          `all ${errored.length} samples errored (first: ${firstError}); Inspect scored none of them, so there is nothing to import`,
        );
        return;
      }
      source.errored_samples = { count: errored.length, ids: errored.slice(0, KEPT_IDS) };
      ctx.note(`skipped ${errored.length} errored sample${errored.length === 1 ? "" : "s"} (ids ${shown})`);
    }
  } finally {
    await zip.close();
  }
}
