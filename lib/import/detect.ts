// Which format a file is, from its content (never its name): ZIP magic → Inspect .eval;
// JSONL whose first record has doc_id + resps + filtered_resps → lm-eval samples, task_id +
// human_minutes + score_binarized → METR runs; a JSON document is told apart by its keys
// (detectDocument) once it is parsed.
import fs from "node:fs/promises";
import type { ImportFormat } from "./formats";
import { isObj } from "./context";

export type Sniff =
  { kind: "zip" } | { kind: "jsonl"; format: "lm-eval" | "metr" } | { kind: "json" } | { kind: "unknown"; reason: string };

const HEAD = 1 << 16;

export async function sniffFile(path: string): Promise<Sniff> {
  const fh = await fs.open(path, "r");
  try {
    const buf = Buffer.alloc(HEAD);
    const { bytesRead } = await fh.read(buf, 0, HEAD, 0);
    return sniffHead(buf.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

export function sniffHead(head: Uint8Array): Sniff {
  if (head.length === 0) return { kind: "unknown", reason: "the file is empty" };
  if (head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5) && (head[3] === 4 || head[3] === 6)) return { kind: "zip" };
  let text = Buffer.from(head).toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return { kind: "unknown", reason: "not a ZIP archive, JSON or JSONL" };
  const nl = trimmed.indexOf("\n");
  const first = (nl === -1 ? trimmed : trimmed.slice(0, nl)).trim();
  let rec: unknown;
  try {
    rec = JSON.parse(first);
  } catch {
    return { kind: "json" }; // a pretty-printed or long document: decided after parsing it
  }
  if (!isObj(rec)) return { kind: "json" };
  const rest = nl === -1 ? "" : trimmed.slice(nl + 1).trim();
  if (rest === "" && !looksLikeRecord(rec)) return { kind: "json" }; // a one-line JSON document
  if ("doc_id" in rec && "resps" in rec && "filtered_resps" in rec) return { kind: "jsonl", format: "lm-eval" };
  if ("task_id" in rec && "human_minutes" in rec && "score_binarized" in rec) return { kind: "jsonl", format: "metr" };
  if (rec.type === "run" || rec.type === "item")
    return { kind: "unknown", reason: "this is a native Stepwise file: load it with `stepwise ingest`" };
  if (rest === "") return { kind: "json" };
  return {
    kind: "unknown",
    reason:
      "JSONL whose records are neither lm-eval samples (doc_id, resps, filtered_resps) nor METR runs (task_id, human_minutes, score_binarized)",
  };
}

const looksLikeRecord = (o: Record<string, unknown>) => ("doc_id" in o && "resps" in o) || ("task_id" in o && "human_minutes" in o);

/** Which JSON document this is, or why it is none of ours. */
export function detectDocument(doc: unknown): { format: ImportFormat } | { format: null; reason: string } {
  if (!isObj(doc)) return { format: null, reason: "a JSON document of a known format is an object" };
  if (doc.experiment === "self_conditioning") return { format: "selfcond" };
  if (Array.isArray(doc.step_logs)) return { format: "eval-steps" };
  if (isObj(doc.run_info) && ("detailed_experiment_outputs" in doc || "evaluation_summary" in doc)) return { format: "experiment-results" };
  if (doc.experiment === "standard")
    return { format: null, reason: "a standard (aggregate-only) reproduction file holds no per-sample results to import" };
  return {
    format: null,
    reason: "unknown JSON document (expected a self-conditioning reproduction, eval_step_results.json or experiment_results.json)",
  };
}
