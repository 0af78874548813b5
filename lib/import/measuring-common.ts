// Shared by the two measuring-execution importers (Sinha et al.'s official harness): the run
// header, and one dict-sum item built from keys, values and turn texts, then analysed by the
// same code as native dict-sum items (so these runs get full step and turn curves).
import path from "node:path";
import type { NativeItem, RunHeader } from "../analysis/types";
import { tryAnalyseItem } from "../analysis/analyse";
import type { ReaderEvent } from "../native/reader";
import { slug, type ImportContext } from "./context";

export const NOOP = "<NoOp>";
export const INVALID = "<IncorrectFormat>";

/** The harness writes each run into `<timestamp>_<model>_<multi|single>-turn_<cot|no-cot>_<thinking|no-thinking>_wc_<K>/`. */
export function runDirInfo(
  file: string,
): { timestamp: string; model: string; multiTurn: boolean; cot: boolean; thinking: boolean; K: number } | null {
  const dir = path.basename(path.dirname(file));
  const m = /^(\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2})_(.+)_(multi|single)-turn_(cot|no-cot)_(thinking|no-thinking)_wc_(\d+)$/.exec(dir);
  if (!m) return null;
  return { timestamp: m[1], model: m[2], multiTurn: m[3] === "multi", cot: m[4] === "cot", thinking: m[5] === "thinking", K: Number(m[6]) };
}

export function measuringHeader(
  ctx: ImportContext,
  a: {
    model: string;
    K: number;
    multiTurn: boolean;
    horizon: number;
    stamp: string | null;
    config: Record<string, unknown>;
    format: string;
  },
): RunHeader {
  const mode = a.multiTurn ? "multi" : "single";
  return {
    key: ctx.opts.key ?? `me__${slug(a.model)}__${mode}-k${a.K}-h${a.horizon}${a.stamp ? `__${slug(a.stamp)}` : ""}`,
    model: { name: a.model },
    benchmark: "dict-sum",
    variant: { name: `me-${mode}-k${a.K}-h${a.horizon}`, K: a.K, multi_turn: a.multiTurn, horizon: a.horizon },
    config: a.config,
    source: { format: a.format, harness: "measuring-execution" },
    created_at: a.stamp ? a.stamp.replace(/^(\d{4}-\d{2}-\d{2})_(\d{2})-(\d{2})-(\d{2})$/, "$1T$2:$3:$4") : null,
  };
}

/** A turn text standing in for one the file does not keep, from the harness's parse of it. */
export function synthTurn(parsed: unknown): string {
  if (parsed === NOOP || parsed === null || parsed === undefined) return "";
  if (parsed === INVALID) return "<answer>(unparseable)</answer>";
  return `<answer>${String(parsed)}</answer>`;
}

/**
 * One dict-sum generation from keys and values (the dictionary is rebuilt from them: a word
 * with two different values is an error), analysed like a native item. `at` names the place
 * in the file for errors.
 */
export function dictSumEvent(
  ctx: ImportContext,
  header: RunHeader,
  g: { id: string; keys: unknown[]; values: unknown[]; output: string | string[]; at: string; metadata?: Record<string, unknown> },
): ReaderEvent | null {
  if (g.keys.length === 0 || g.keys.length !== g.values.length) {
    ctx.error(0, g.at, `needs as many keys as values (got ${g.keys.length} keys, ${g.values.length} values)`);
    return null;
  }
  // Kept without a prototype (so a word "__proto__" is a word): copied into a plain object, each
  // instance's hundred new keys cost hidden-class transitions, ~0.8 µs a key (docs/performance.md, "Importers").
  const dictionary: Record<string, number> = Object.create(null);
  for (let i = 0; i < g.keys.length; i++) {
    const k = g.keys[i];
    const v = g.values[i];
    if (typeof k !== "string" || typeof v !== "number" || !Number.isInteger(v)) {
      ctx.error(0, `${g.at}[${i}]`, `key ${i + 1} must be a word with an integer value (got ${JSON.stringify(k)} → ${JSON.stringify(v)})`);
      return null;
    }
    if (k in dictionary && dictionary[k] !== v) {
      ctx.error(0, `${g.at}[${i}]`, `word '${k}' has two values (${dictionary[k]} and ${v})`);
      return null;
    }
    dictionary[k] = v;
  }
  const item: NativeItem = {
    id: g.id,
    length: g.keys.length,
    epoch: 0,
    input: { keys: g.keys, dictionary },
    output: g.output,
    ...(g.metadata ? { metadata: g.metadata } : {}),
  };
  const r = tryAnalyseItem(header, item);
  if (!r.ok) {
    for (const e of r.errors) ctx.error(0, `${g.at} (${e.field})`, e.message);
    return null;
  }
  return ctx.generation(item, r.analysis, 0, g.at);
}
