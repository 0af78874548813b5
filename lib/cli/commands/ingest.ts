import fs from "node:fs";
import { parseArgs } from "node:util";
import type { LineError } from "../../analysis/types";
import { AnalysisThread, analysisThreadUrl, onTwoThreads } from "../../store/analysis-thread-start";
import { LinesAhead } from "../../store/lines-ahead";
import { formatLineError } from "../../store/load-errors";
import { fileChunks } from "../../store/read-lines";
import type { LoadReport } from "../../store/load";
import { tuneForLoad } from "../heap";
import { progressBar } from "../progress";

export const ingestHelp = `stepwise ingest FILE… [--json] [--max-errors N] [--threads 1|2]
  Loads native JSONL files (SPEC §5); "-" reads standard input. Each file loads in one
  transaction: any error leaves the store as it was, and every error is listed.
  --threads 2 (default for files over 8 MB and stdin) parses and analyses on a second
  thread; --threads 1 is slower and uses about 100 MB less memory.`;

export async function ingestCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: "boolean" }, "max-errors": { type: "string" }, threads: { type: "string" }, help: { type: "boolean" } },
  });
  if (values.help || positionals.length === 0) {
    console.log(ingestHelp);
    return values.help ? 0 : 2;
  }
  const maxErrors = values["max-errors"] ? Number(values["max-errors"]) : undefined;
  if (values.threads !== undefined && values.threads !== "1" && values.threads !== "2") {
    console.error(`--threads: expected 1 or 2, got '${values.threads}'`);
    return 2;
  }
  tuneForLoad();
  const options = { json: values.json === true, maxErrors, threads: values.threads };
  // The first file's analysis thread starts before the store's and the loader's modules load
  // (~0.3 s), so that its isolate's own start (~0.15 s) is not waited for after them, and the
  // file's first lines go to it then (lib/store/lines-ahead.ts).
  const first = positionals[0];
  const thread =
    (first === "-" || !whyUnreadable(first)) && onTwoThreads(options.threads, sizeOf(first))
      ? new AnalysisThread(analysisThreadUrl, { file: nameOf(first), maxErrors })
      : null;
  let lines: LinesAhead | null = null;
  try {
    lines = thread && first !== "-" ? new LinesAhead(thread, fileChunks(first), await storeOptions()) : null;
    return await ingestFiles(positionals, options, thread && { thread, lines });
  } finally {
    await lines?.close();
    await thread?.stop();
  }
}

/** What a load will tell its source about the store DATABASE_URL names (lib/store/load.ts, loadNative). */
async function storeOptions() {
  const [{ env, providerOf }, { compressesOutputs }] = await Promise.all([import("../../env"), import("../../store/output-text")]);
  const provider = providerOf(env.DATABASE_URL);
  return { compressesOutputs: compressesOutputs(provider), loaderWaitsOnServer: provider === "postgres" };
}

const nameOf = (file: string) => (file === "-" ? "<stdin>" : file);
/** A file's bytes; null for standard input. */
const sizeOf = (file: string) => (file === "-" ? null : fs.statSync(file).size);

async function ingestFiles(
  positionals: string[],
  { json, maxErrors, threads }: { json: boolean; maxErrors: number | undefined; threads: string | undefined },
  ahead: { thread: AnalysisThread; lines: LinesAhead | null } | null,
): Promise<number> {
  const [{ loadNative }, { parallelNativeSource, startedNativeSource }, { withRawStore }] = await Promise.all([
    import("../../store/load"),
    import("../../store/parallel-source"),
    import("../store"),
  ]);
  const reports: LoadReport[] = await withRawStore(async (store) => {
    const out: LoadReport[] = [];
    for (const [i, file] of positionals.entries()) {
      const name = nameOf(file);
      const unreadable = file === "-" ? null : whyUnreadable(file);
      if (unreadable) {
        const report: LoadReport = {
          file,
          ok: false,
          runs: [],
          errors: [{ file, line: 0, field: "-", message: unreadable }],
          lines: 0,
          generations: 0,
          steps: 0,
        };
        out.push(report);
        if (!json) printReport(report, 0);
        continue;
      }
      const input = i === 0 && ahead?.lines ? ahead.lines.input : file === "-" ? process.stdin : fileChunks(file);
      const totalBytes = sizeOf(file);
      const bar = progressBar(name, "MB");
      const started = Date.now();
      const report = await loadNative(store, name, input, {
        totalBytes,
        maxErrors,
        source:
          i === 0 && ahead
            ? startedNativeSource(ahead.thread, ahead.lines)
            : onTwoThreads(threads, totalBytes)
              ? parallelNativeSource
              : undefined,
        onProgress: (p) =>
          bar.update(p.bytes / 1e6, p.totalBytes ? p.totalBytes / 1e6 : null, `${p.generations} generations, ${p.steps} steps`),
      });
      bar.done();
      out.push(report);
      if (!json) printReport(report, (Date.now() - started) / 1000);
    }
    return out;
  });
  if (json) console.log(JSON.stringify(reports, null, 2));
  return reports.every((r) => r.ok) ? 0 : 1;
}

function printReport(r: LoadReport, secs: number) {
  if (r.ok) {
    for (const run of r.runs) {
      if (run.replaced) console.log(`replaced run ${run.key}`);
      console.log(`loaded ${run.key}: ${run.items} items, ${run.generations} generations, ${run.steps} steps`);
    }
    console.log(`${r.file}: ${r.runs.length} run(s), ${r.generations} generations in ${secs.toFixed(1)}s`);
  } else {
    // The reader ends a capped list with a "too many errors" entry: a note, not an error.
    const real = r.errors.filter((e) => !isTooManyErrors(e));
    for (const e of real) console.error(formatLineError(e));
    const more = real.length < r.errors.length ? ` (stopped after ${real.length}; there are more)` : "";
    console.error(`${r.file}: ${real.length} error(s)${more}; nothing from this file was loaded`);
  }
}

const isTooManyErrors = (e: LineError) => e.field === "-" && e.message.startsWith("too many errors: stopped reporting after");

/** Why a file cannot be read as a whole (checked before a load starts, so the error names it), or null. */
function whyUnreadable(file: string): string | null {
  try {
    if (fs.statSync(file).isDirectory()) return "is a directory, not a file";
    fs.closeSync(fs.openSync(file, "r"));
    return null;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : `cannot read it (${(e as Error).message})`;
  }
}
