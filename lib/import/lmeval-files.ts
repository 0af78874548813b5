// Where an lm-evaluation-harness samples file comes from: task and date-time from its name
// (samples_<task>_<datetime>.jsonl), and the results_<datetime>.json beside it (the model, the
// tasks' output types and corpus-level metrics).
import fs from "node:fs";
import path from "node:path";
import { isObj, stem } from "./context";

const NAME = /^samples_(.+)_(\d{4}-\d{2}-\d{2}T[\d.-]+)$/;

export function taskFromFileName(file: string): { task: string; stamp: string | null } {
  const s = stem(file);
  const m = NAME.exec(s);
  return m ? { task: m[1], stamp: m[2] } : { task: s.replace(/^samples_/, ""), stamp: null };
}

/** lm-eval's file stamp (`2025-08-01T10-20-30.123456`, local time) as ISO text (`2025-08-01T10:20:30.123456`). */
export function stampToIso(stamp: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})(\.\d+)?$/.exec(stamp);
  return m ? `${m[1]}T${m[2]}:${m[3]}:${m[4]}${m[5] ?? ""}` : null;
}

/** The results_<stamp>.json beside the samples file (the one of the same stamp, else the only one). */
export function resultsBeside(file: string, stamp: string | null): Record<string, unknown> | null {
  const dir = path.dirname(file);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => /^results_.*\.json$/.test(n));
  } catch {
    return null;
  }
  const pick = names.find((n) => stamp && n === `results_${stamp}.json`) ?? (names.length === 1 ? names[0] : undefined);
  if (!pick) return null;
  try {
    const r = JSON.parse(fs.readFileSync(path.join(dir, pick), "utf8")) as unknown;
    return isObj(r) ? r : null;
  } catch {
    return null;
  }
}

/** The model a results_*.json names: model_name, else `pretrained=` of model_args. */
export function modelOfResults(r: Record<string, unknown> | null): string | undefined {
  if (!r) return undefined;
  const cfg = isObj(r.config) ? r.config : {};
  const args = typeof cfg.model_args === "string" ? /(?:^|,)pretrained=([^,]+)/.exec(cfg.model_args)?.[1] : undefined;
  return [r.model_name, cfg.model_name, args, cfg.model].find((v) => typeof v === "string" && v !== "") as string | undefined;
}
