import type { Readable } from "node:stream";
import type { LineError } from "../analysis/types";
import type { RawStore } from "../db";
import { progressSteps } from "../analysis/analyse";
import { emptyFileError, NativeReader, type ReaderEvent } from "../native/reader";
import { concurrentLoadError, LoadRejected } from "./load-errors";
import type { AggregatesEvent, PreparedEvent, RunEndEvent } from "./parallel-source";
import type { RawTx } from "./raw";
import { compressesOutputs } from "./output-text";
import { readLines } from "./read-lines";
import { markIndexed } from "./search-index";
import { refreshStatistics } from "./statistics";
import { RunWriter } from "./run-writer";
import { badCountField, nulTextField } from "./rows";
import { newProgress, type LoadProgress } from "./load-progress";

export interface LoadedRun {
  key: string;
  items: number;
  generations: number;
  steps: number;
  /** a run with this key was in the store and this load replaced it */
  replaced: boolean;
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
  /**
   * Where events come from; default: the in-thread reader (nativeSource). The CLI passes
   * parallelNativeSource (lib/store/parallel-source.ts) to parse and analyse on a second
   * thread. Injected rather than imported here: the worker's entry needs tsx, which the
   * Next.js server bundle must not pull in (its upload route loads in-thread).
   */
  source?: typeof nativeSource;
  /**
   * Index the loaded runs' outputs for search as they are written (SQLite; default true), so
   * they commit searchable. False leaves them to indexPendingRuns after the commit (searched
   * by a scan meanwhile).
   */
  searchIndex?: boolean;
  /** Mark every run of the file as a demo run (`stepwise demo`; hidden from the leaderboard once real runs exist). */
  demo?: boolean;
}

/**
 * Anything that turns a file into runs and analysed generations: the native reader, or an
 * importer of another format. `errors` fills up while `events` is consumed; `progress` is
 * updated by the source (bytes, lines) and by the loader (generations, steps).
 */
export interface EventSource {
  events: AsyncIterable<ReaderEvent | PreparedEvent | RunEndEvent | AggregatesEvent>;
  errors: LineError[];
}

const COUNT_MESSAGE = "must be a whole number from 0 to 2147483647";
const NUL_MESSAGE = "holds the character U+0000, which PostgreSQL cannot store in text (a SQLite store can)";

/** A load's transaction: on SQLite its checkpoint runs after its COMMIT on a thread of its own (lib/store/checkpoint-thread.ts). */
const BULK = { bulk: true };

/**
 * Loads one file in one transaction: every run in it replaces the run with the same key, and
 * any error anywhere in the file rolls everything back (every error is reported).
 */
export async function loadEvents(
  store: RawStore,
  file: string,
  source: EventSource,
  progress: LoadProgress,
  onProgress?: (p: LoadProgress) => void,
  { searchIndex = true, demo = false }: { searchIndex?: boolean; demo?: boolean } = {},
): Promise<LoadReport> {
  const runs: LoadedRun[] = [];
  const { errors } = source;
  let current: string | null = null; // the run being written, named if the load loses a race
  try {
    await store.raw.transaction(async (tx) => {
      const restoreCache = await growPageCache(tx);
      let writer = null as RunWriter | null;
      try {
        const written: number[] = [];
        const finish = async (last = false) => {
          if (writer && errors.length === 0) {
            runs.push(await writer.finish({ analyse: last }));
            written.push(writer.runId);
          } else await writer?.quiesce();
          writer = null;
        };
        let n = 0;
        for await (const ev of source.events) {
          if (ev.kind === "runEnd") {
            if (writer && errors.length === 0) await writer.endWrites(ev.last);
            continue;
          }
          if (ev.kind === "aggregates") {
            writer?.summaries.take(() => {
              if ("error" in ev) throw new Error(`the run's metrics could not be computed: ${ev.error}`);
              return ev.aggregates;
            });
            continue;
          }
          const nul = tx.provider === "postgres" ? nulTextField(ev) : null;
          const count = ev.kind === "run" ? null : badCountField(ev);
          if (nul) {
            errors.push({ file, line: ev.line, field: nul, message: NUL_MESSAGE });
            if (ev.kind === "run") await finish();
          } else if (count) {
            errors.push({ file, line: ev.line, field: count, message: COUNT_MESSAGE });
          } else if (ev.kind === "run") {
            await finish();
            current = ev.header.key;
            if (errors.length === 0)
              writer = await RunWriter.open(tx, ev.header, { demo, searchIndex, sharesEventLoop: store.sharesEventLoop });
          } else if (errors.length === 0 && writer) {
            if (ev.kind === "prepared") await writer.addPrepared(ev.p);
            else await writer.add(ev);
            progress.generations++;
            progress.steps += ev.kind === "prepared" ? ev.progressSteps : progressSteps(ev.analysis);
          }
          if ((++n & 255) === 0) onProgress?.(progress);
        }
        await finish(true);
        onProgress?.(progress);
        if (errors.length > 0) throw new LoadRejected(errors);
        if (searchIndex) await markIndexed(tx, written);
      } finally {
        await writer?.quiesce(); // a load that failed midway: its writes end before the rollback
        await restoreCache();
      }
    }, BULK);
    await refreshStatistics(store);
  } catch (e) {
    if (e instanceof LoadRejected) return report(false);
    const lost = concurrentLoadError(e, file, current);
    if (!lost) throw e;
    errors.push(lost);
    return report(false);
  }
  return report(true);

  function report(ok: boolean): LoadReport {
    return { file, ok, runs: ok ? runs : [], errors, lines: progress.lines, generations: progress.generations, steps: progress.steps };
  }
}

/**
 * A load inserts into Generation's seven indexes at places spread over the run's part of each;
 * SQLite's default page cache (2 MB) kept too few of those pages, so a load wrote and read
 * them again through the WAL: 8 MB took ~7% off a 100,000-item load at no cost in peak memory
 * (docs/performance.md, "Load"). For this connection, until the load ends.
 */
const LOAD_CACHE_KIB = 8192;

async function growPageCache(tx: RawTx): Promise<() => Promise<void>> {
  if (tx.provider !== "sqlite") return async () => {};
  const [{ cache_size: before }] = await tx.query<{ cache_size: number }>("PRAGMA cache_size");
  await tx.exec(`PRAGMA cache_size = ${-LOAD_CACHE_KIB}`);
  return async () => void (await tx.exec(`PRAGMA cache_size = ${Number(before)}`));
}

/** Native JSONL (SPEC §5) as an event source. */
export function nativeSource(
  file: string,
  input: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string> | Readable,
  progress: LoadProgress,
  { maxErrors }: SourceOptions,
): EventSource {
  const reader = new NativeReader(file, { maxErrors });
  async function* events(): AsyncIterable<ReaderEvent> {
    for await (const text of readLines(input, (n) => (progress.bytes += n))) {
      const ev = reader.line(text, ++progress.lines);
      if (ev) yield ev;
    }
    yield* reader.end();
    if (progress.lines === 0) reader.errors.push(emptyFileError(file));
  }
  return { events: events(), errors: reader.errors };
}

/** What a source is told about the store it feeds. */
export interface SourceOptions {
  maxErrors?: number;
  /** the store keeps outputs compressed (SQLite): a thread with time to spare may compress them (lib/store/done-ahead.ts) */
  compressesOutputs: boolean;
  /** the loader's thread waits on a database server (PostgreSQL): a thread's replies wait serialized until taken (lib/store/analysis-thread-start.ts), and it leaves the loader's part to the loader */
  loaderWaitsOnServer: boolean;
}

export async function loadNative(
  store: RawStore,
  file: string,
  input: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string> | Readable,
  opts: LoadOptions = {},
): Promise<LoadReport> {
  const progress = newProgress(opts.totalBytes ?? null);
  const source = (opts.source ?? nativeSource)(file, input, progress, {
    maxErrors: opts.maxErrors,
    compressesOutputs: compressesOutputs(store.raw.provider),
    loaderWaitsOnServer: store.raw.provider === "postgres",
  });
  return loadEvents(store, file, source, progress, opts.onProgress, { searchIndex: opts.searchIndex, demo: opts.demo });
}
