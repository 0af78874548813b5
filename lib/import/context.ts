// What every importer gets: where the file is, the options, progress counters and one error
// list shared with the loader (a non-empty list at the end rolls the whole file back).
import type { GenerationAnalysis, LineError, NativeItem, RunHeader } from "../analysis/types";
import { ItemNumbering } from "../native/item-numbering";
import type { ReaderEvent } from "../native/reader";
import type { LoadProgress } from "../store/load-progress";
import type { ImportOptions } from "./options";

export class ImportContext {
  readonly errors: LineError[] = [];
  /** facts the user should see beside a successful import (`skipped 2 errored samples …`) */
  readonly notes: string[] = [];
  /** true once more errors were found than --max-errors lets through */
  truncated = false;
  private runKeys = new Set<string>();
  private items = new ItemNumbering();
  private header: RunHeader | null = null;

  constructor(
    /** the name errors use (the path given, or the upload's name) */
    readonly file: string,
    /** where the bytes are on disk */
    readonly path: string,
    readonly size: number,
    readonly opts: ImportOptions,
    readonly progress: LoadProgress,
  ) {}

  get maxErrors() {
    return this.opts.maxErrors ?? 100;
  }

  /** `line` is the line number for JSONL, 0 for a JSON document or a ZIP (the field says where). */
  error(line: number, field: string, message: string): void {
    // Exactly maxErrors are kept: `--max-errors 3` lists 3 errors and says it stopped.
    if (this.errors.length >= this.maxErrors) {
      this.truncated = true;
      return;
    }
    this.errors.push({ file: this.file, line, field, message });
  }

  note(message: string): void {
    this.notes.push(message);
  }

  get failed() {
    return this.errors.length > 0;
  }

  run(header: RunHeader, line = 0, field = "-"): ReaderEvent | null {
    if (this.runKeys.has(header.key)) {
      this.error(line, field, `run key '${header.key}' would appear twice in this file (use distinct models or --key)`);
      return null;
    }
    this.runKeys.add(header.key);
    this.header = header;
    this.items.close();
    this.items = new ItemNumbering();
    return { kind: "run", line, header };
  }

  /** A generation of the current run; duplicates (same item id and epoch) are errors. */
  generation(item: NativeItem, analysis: GenerationAnalysis, line = 0, field = "-"): ReaderEvent | null {
    if (!this.header) throw new Error("generation before run");
    const seen = this.items.see(item.id, item.epoch);
    if (!seen) {
      this.error(line, field, `duplicate item '${item.id}' (epoch ${item.epoch}) in run '${this.header.key}'`);
      return null;
    }
    return { kind: "generation", line, header: this.header, item, analysis, itemIndex: seen.index, firstOfItem: seen.first };
  }
}

/** A short, URL-safe piece of a run key. */
export function slug(s: string): string {
  return (
    s
      .normalize("NFKD")
      .replace(/[^\w.+-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .toLowerCase()
      .slice(0, 80) || "x"
  );
}

/** File name without directories and the given extensions. */
export function stem(file: string, exts: RegExp = /\.(jsonl|json|eval|zip)$/i): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(exts, "");
}

export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
export const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);
export const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

export function describe(v: unknown): string {
  if (v === undefined) return "nothing: the field is missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return `the text ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v)}`;
  if (typeof v === "object") return "an object";
  return `${typeof v} ${String(v)}`;
}

/** Length of an lm-eval doc or an Inspect sample's metadata: its own step count when it has one, else 1 (no step notion). */
export function docLength(doc: unknown): number {
  if (!isObj(doc)) return 1;
  for (const k of ["length", "num_steps", "n_steps", "steps", "L"]) {
    const v = doc[k];
    if (isInt(v) && v >= 1) return v;
  }
  return 1;
}
