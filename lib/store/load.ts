import { Readable } from "node:stream";
import { NativeReader } from "../native/reader";
import type { LineError } from "../analysis/types";
import type { Store } from "../db";
import { LoadRejected } from "./load-errors";
import { readLines } from "./read-lines";
import { RunWriter } from "./run-writer";

export interface LoadProgress {
  bytes: number;
  totalBytes: number | null;
  lines: number;
  generations: number;
  steps: number;
}

export interface LoadedRun {
  key: string;
  items: number;
  generations: number;
  steps: number;
}

export interface LoadReport {
  file: string;
  ok: boolean;
  runs: LoadedRun[];
  errors: LineError[];
  lines: number;
  generations: number;
  steps: number;
}

export interface LoadOptions {
  totalBytes?: number | null;
  onProgress?: (p: LoadProgress) => void;
  maxErrors?: number;
}

/**
 * Loads one native JSONL file in one transaction: every run in it replaces the run with the
 * same key, and any error anywhere in the file rolls everything back (all errors reported).
 */
export async function loadNative(
  store: Store,
  file: string,
  input: AsyncIterable<Uint8Array | string> | Readable,
  opts: LoadOptions = {},
): Promise<LoadReport> {
  const reader = new NativeReader(file, { maxErrors: opts.maxErrors });
  const progress: LoadProgress = { bytes: 0, totalBytes: opts.totalBytes ?? null, lines: 0, generations: 0, steps: 0 };
  const runs: LoadedRun[] = [];
  const tick = () => opts.onProgress?.(progress);
  try {
    await store.raw.transaction(async (tx) => {
      let writer = null as RunWriter | null;
      const seen = new Set<string>();
      const finish = async () => {
        if (writer && reader.errors.length === 0) runs.push(await writer.finish());
        writer = null;
      };
      const handle = async (ev: ReturnType<NativeReader["line"]>, line: number) => {
        if (!ev) return;
        if (ev.kind === "run") {
          await finish();
          if (seen.has(ev.header.key)) {
            reader.errors.push({ file, line, field: "key", message: `run key '${ev.header.key}' appears twice in this file` });
            return;
          }
          seen.add(ev.header.key);
          if (reader.errors.length === 0) writer = await RunWriter.open(tx, ev.header);
        } else if (reader.errors.length === 0 && writer) {
          await writer.add(ev.item, ev.analysis);
          progress.generations++;
          progress.steps += ev.analysis.hasSteps ? ev.analysis.length : 0;
        }
      };
      for await (const text of readLines(input, (n) => (progress.bytes += n))) {
        progress.lines++;
        await handle(reader.line(text, progress.lines), progress.lines);
        if ((progress.lines & 255) === 0) tick();
      }
      for (const ev of reader.end()) await handle(ev, progress.lines);
      if (progress.lines === 0) reader.errors.push({ file, line: 0, field: "-", message: "the file is empty" });
      await finish();
      tick();
      if (reader.errors.length > 0) throw new LoadRejected(reader.errors);
    });
  } catch (e) {
    if (e instanceof LoadRejected) return report(false, e.errors);
    throw e;
  }
  return report(true, []);

  function report(ok: boolean, errors: LineError[]): LoadReport {
    return { file, ok, runs: ok ? runs : [], errors, lines: progress.lines, generations: progress.generations, steps: progress.steps };
  }
}
