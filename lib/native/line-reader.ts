// Streaming reader of native JSONL files (SPEC §5): the loader feeds it one line at a time and
// gets back events to store. Every problem becomes a LineError; reading goes on after errors so
// that one pass reports all of them (up to a cap). A file with any error must load nothing:
// that decision belongs to the loader, which checks `errors` at the end.
//
// This module loads no zod: lines of the common shape are read by hand (lib/native/common-lines.ts)
// and the others by the schemas it is given (NativeReader, lib/native/reader.ts, gives them). The
// analysis thread starts without them and loads them when a line needs them (SchemasNeeded).
import type { FieldError, GenerationAnalysis, LineError, NativeItem, RunHeader } from "../analysis/types";
import { tryAnalyseItem } from "../analysis/analyse";
import { ItemNumbering } from "./item-numbering";
import { commonItemLine, commonRunLine, headerFromLine, itemFromLine } from "./common-lines";

/** The schemas' readers of lines (lib/native/schema.ts, lineSchemas), for lines not of the common shape. */
export interface LineSchemas {
  parseRunLine(obj: unknown): { header: RunHeader | null; errors: FieldError[] };
  parseItemLine(obj: unknown): { item: NativeItem | null; errors: FieldError[] };
}

/** Thrown by a LineReader without schemas for a line that needs them; the reader is as it was before the line. */
export class SchemasNeeded extends Error {
  constructor() {
    super("internal: this line needs the native line schemas");
  }
}

export type ReaderEvent =
  | { kind: "run"; line: number; header: RunHeader }
  | {
      kind: "generation";
      line: number;
      header: RunHeader;
      item: NativeItem;
      analysis: GenerationAnalysis;
      /** the item's number in its run, by first appearance (lib/native/item-numbering.ts) */
      itemIndex: number;
      /** false when an earlier generation of the run had the item: its content record is built once */
      firstOfItem: boolean;
    };

export type GenerationEvent = Extract<ReaderEvent, { kind: "generation" }>;

/** The error of a file without a single line (both load paths report it the same way). */
export function emptyFileError(file: string): LineError {
  return { file, line: 0, field: "-", message: "the file is empty" };
}

export interface NativeReaderOptions {
  /** errors kept before a final "too many errors" entry; default 100 */
  maxErrors?: number;
  /** items of a run kept in memory before its table moves to disk (lib/native/item-numbering.ts); tests give a small one */
  itemsInMemory?: number;
}

export class LineReader {
  readonly errors: LineError[] = [];
  private readonly maxErrors: number;
  private readonly itemsInMemory: number | undefined;
  private capped = false;
  /** the current run; null before any run line or after an invalid one */
  private header: RunHeader | null = null;
  private sawRunLine = false;
  private runInvalid = false;
  /** the current run's items */
  private items: ItemNumbering;
  private runKeys = new Set<string>();
  private lastLine = 0;

  constructor(
    readonly file: string,
    opts: NativeReaderOptions,
    /** null until given (useSchemas): a line that needs them throws SchemasNeeded */
    private schemas: LineSchemas | null,
  ) {
    this.maxErrors = Math.max(1, opts.maxErrors ?? 100);
    this.itemsInMemory = opts.itemsInMemory;
    this.items = this.newItems();
  }

  private newItems(): ItemNumbering {
    this.items?.close();
    return new ItemNumbering(undefined, this.itemsInMemory);
  }

  useSchemas(schemas: LineSchemas): void {
    this.schemas = schemas;
  }

  private parseRun(obj: object): { header: RunHeader | null; errors: FieldError[] } {
    const d = commonRunLine(obj);
    if (d) return { header: headerFromLine(d), errors: [] };
    if (!this.schemas) throw new SchemasNeeded();
    return this.schemas.parseRunLine(obj);
  }

  private parseItem(obj: object): { item: NativeItem | null; errors: FieldError[] } {
    const d = commonItemLine(obj);
    if (d) return { item: itemFromLine(d), errors: [] };
    if (!this.schemas) throw new SchemasNeeded();
    return this.schemas.parseItemLine(obj);
  }

  /** Feeds one line (without its newline). Blank lines are ignored. */
  line(text: string, lineNo: number): ReaderEvent | null {
    this.lastLine = lineNo;
    if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1); // UTF-8 BOM
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() === "") return null;
    // JSON.parse accepts any depth, but the writer (JSON.stringify) and the analysis recurse:
    // a line nested thousands deep would crash the load with a stack overflow and no line.
    if (!fewOpenings(text, MAX_DEPTH) && nestingDepth(text) > MAX_DEPTH) {
      this.error(lineNo, "-", `JSON nested deeper than ${MAX_DEPTH} levels`);
      return null;
    }
    let obj: unknown;
    try {
      obj = JSON.parse(text);
    } catch (e) {
      this.error(lineNo, "-", looksCutOff(text) ? "invalid JSON (the line is cut off)" : `invalid JSON (${(e as Error).message})`);
      return null;
    }
    if (typeof obj !== "object" || obj === null || Array.isArray(obj)) {
      this.error(lineNo, "-", 'a line must be a JSON object with a "type"');
      return null;
    }
    const type = (obj as Record<string, unknown>).type;
    if (type === "run") return this.runLine(obj, lineNo);
    if (type === "item") return this.itemLine(obj, lineNo);
    this.error(
      lineNo,
      "type",
      type === undefined ? 'type is required ("run" or "item")' : `unknown line type ${JSON.stringify(type)} (expected "run" or "item")`,
    );
    return null;
  }

  /** Call after the last line: reports a file without any run line. */
  end(): ReaderEvent[] {
    if (!this.sawRunLine && this.errors.length === 0) this.error(this.lastLine, "-", "the file holds no run line");
    this.items = this.newItems(); // the last run's, let go before its metrics are computed (lib/store/native-thread.ts)
    return [];
  }

  private runLine(obj: object, lineNo: number): ReaderEvent | null {
    const { header, errors } = this.parseRun(obj); // first: it may throw SchemasNeeded
    this.sawRunLine = true;
    this.items = this.newItems();
    if (header && this.runKeys.has(header.key))
      errors.push({ field: "key", message: `run key '${header.key}' appears twice in this file` });
    if (!header || errors.length) {
      for (const e of errors) this.error(lineNo, e.field, e.message);
      this.header = null;
      this.runInvalid = true;
      return null;
    }
    this.runKeys.add(header.key);
    this.header = header;
    this.runInvalid = false;
    return { kind: "run", line: lineNo, header };
  }

  private itemLine(obj: object, lineNo: number): ReaderEvent | null {
    if (!this.sawRunLine) {
      this.error(lineNo, "type", "item line before any run line");
      return null;
    }
    const { item, errors } = this.parseItem(obj);
    if (!item) {
      for (const e of errors) this.error(lineNo, e.field, e.message);
      return null;
    }
    // Items of an invalid run are checked for shape only: their run's settings are unknown.
    if (this.runInvalid || !this.header) return null;
    const seen = this.items.see(item.id, item.epoch);
    if (!seen) {
      this.error(lineNo, "id", `duplicate item '${item.id}' (epoch ${item.epoch}) in run '${this.header.key}'`);
      return null;
    }
    const r = tryAnalyseItem(this.header, item);
    if (!r.ok) {
      for (const e of r.errors) this.error(lineNo, e.field, e.message);
      return null;
    }
    if (item.length === 0) item.length = r.analysis.length;
    return {
      kind: "generation",
      line: lineNo,
      header: this.header,
      item,
      analysis: r.analysis,
      itemIndex: seen.index,
      firstOfItem: seen.first,
    };
  }

  private error(line: number, field: string, message: string): void {
    if (this.capped) return;
    if (this.errors.length >= this.maxErrors) {
      this.capped = true;
      this.errors.push({ file: this.file, line, field: "-", message: `too many errors: stopped reporting after ${this.maxErrors}` });
      return;
    }
    this.errors.push({ file: this.file, line, field, message });
  }
}

const MAX_DEPTH = 100;

/**
 * Whether the text holds at most `max` of `{` and `[` (in strings or not): then no nesting is
 * deeper. Counted with indexOf, ~8× faster than nestingDepth's scan on a typical line
 * (docs/performance.md, "Load"), which only the other lines need.
 */
function fewOpenings(text: string, max: number): boolean {
  let count = 0;
  for (let i = text.indexOf("{"); i !== -1; i = text.indexOf("{", i + 1)) if (++count > max) return false;
  for (let i = text.indexOf("["); i !== -1; i = text.indexOf("[", i + 1)) if (++count > max) return false;
  return true;
}

/** Deepest nesting of objects/arrays in a JSON text; jumps over strings with indexOf (fast on long outputs). */
function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // to the closing quote: one not preceded by an odd number of backslashes
      for (;;) {
        const q = text.indexOf('"', i + 1);
        if (q === -1) return max;
        let b = q - 1;
        while (text.charCodeAt(b) === 92 /* \\ */) b--;
        i = q;
        if ((q - 1 - b) % 2 === 0) break;
      }
    } else if (c === 123 || c === 91) {
      if (++depth > max) max = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/** True when the text ends inside a string or an open object/array: a truncated line. */
function looksCutOff(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
  }
  return inString || depth > 0;
}
