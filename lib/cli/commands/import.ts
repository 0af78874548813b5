import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import type { ImportReport } from "../../import";
import { FORMAT_LABEL, IMPORT_FORMATS } from "../../import/formats";
import type { ImportOptions } from "../../import/options";
import type { ImportStarter } from "../../import/report";
import { formatLineError } from "../../store/load-errors";
import { onTwoThreads } from "../../store/analysis-thread-start";
import { boundHeapGrowth } from "../heap";
import { progressBar } from "../progress";
import { UsageError } from "../usage-error";

export const importHelp = `stepwise import FILE… [--format F] [--filter NAME] [--metric NAME] [--model NAME] [--key KEY]
                [--weighting invsqrt_task_weight|equal_task_weight] [--max-errors N]
                [--strict] [--threshold T] [--threads 1|2] [--json]
  Imports results of other tools (SPEC §7); the format is told from the content:
${Object.values(FORMAT_LABEL)
  .map((l) => `    - ${l}`)
  .join("\n")}
  --format     ${IMPORT_FORMATS.join(" | ")} (default auto)
  --filter     lm-eval: the filter whose answers count (default: the first in the file)
  --metric     lm-eval: the metric that means correct (default exact_match, else acc);
               Inspect: the score (default: the first listed): a scorer, a key of a
               dict-valued score ("Problem Correctness") or scorer.key
  --threshold  a score in [0, 1] that is not 0/1 counts as correct when ≥ T (refused without)
  --strict     Inspect: refuse a log with errored samples (default: skip and count them)
  --model      the model name, when the file does not give it (or to override it)
  --key        the run key (a prefix when one file holds several runs)
  --threads    2 (default for files over 8 MB) reads, parses and analyses on a second
               thread while this one inserts; 1 does everything on one
  Each file loads in one transaction: any error leaves the store as it was. "-" reads stdin.`;

export async function importCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: "string" },
      filter: { type: "string" },
      metric: { type: "string" },
      model: { type: "string" },
      key: { type: "string" },
      weighting: { type: "string" },
      "max-errors": { type: "string" },
      strict: { type: "boolean" },
      threshold: { type: "string" },
      threads: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help || positionals.length === 0) {
    console.log(importHelp);
    return values.help ? 0 : 2;
  }
  if (values.threads !== undefined && values.threads !== "1" && values.threads !== "2")
    throw new UsageError(`--threads: expected 1 or 2, got '${values.threads}'`);
  boundHeapGrowth();
  // The first file's import thread starts before the options are parsed (zod loads in ~90 ms)
  // and the store's and the loader's modules load, as `stepwise ingest` starts its analysis
  // thread; it waits for the options (stdin is spooled first: not started ahead).
  const first = positionals[0];
  const firstSize = first === "-" ? null : sizeOf(first);
  const { importThreadAhead } = await import("../../import/parallel");
  const ahead = firstSize !== null && onTwoThreads(values.threads, firstSize) ? importThreadAhead(first, first, firstSize) : null;
  try {
    const { parseImportOptions } = await import("../../import/options");
    const parsed = parseImportOptions({
      format: values.format,
      filter: values.filter,
      metric: values.metric,
      model: values.model,
      key: values.key,
      weighting: values.weighting,
      maxErrors: values["max-errors"],
      strict: values.strict,
      threshold: values.threshold,
    });
    if (!parsed.ok) throw new UsageError(parsed.error);
    ahead?.begin(parsed.options);
    return await importFiles(positionals, parsed.options, { json: values.json === true, threads: values.threads }, ahead?.starter ?? null);
  } finally {
    await ahead?.stop();
  }
}

/** A file's bytes; 0 when it is missing (the import then says so). */
const sizeOf = (file: string) => fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;

async function importFiles(
  positionals: string[],
  options: ImportOptions,
  { json, threads }: { json: boolean; threads: string | undefined },
  /** the first file's thread, started ahead */
  ahead: ImportStarter | null,
): Promise<number> {
  const [{ importFile }, { withRawStore }, { startImportThread }] = await Promise.all([
    import("../../import"),
    import("../store"),
    import("../../import/parallel"),
  ]);
  const reports: ImportReport[] = await withRawStore(async (store) => {
    const out: ImportReport[] = [];
    for (const [i, file] of positionals.entries()) {
      const name = file === "-" ? "<stdin>" : file;
      // stdin is spooled to a temporary file: a ZIP is read from its end, JSON documents whole.
      const tmp = file === "-" ? await spoolStdin() : null;
      const bar = progressBar(name, "MB");
      const started = Date.now();
      try {
        const report = await importFile(
          store,
          name,
          tmp ?? file,
          options,
          (p) => bar.update(p.bytes / 1e6, p.totalBytes ? p.totalBytes / 1e6 : null, `${p.generations} generations`),
          i === 0 && ahead ? ahead : onTwoThreads(threads, sizeOf(tmp ?? file)) ? startImportThread : undefined,
        );
        bar.done();
        out.push(report);
        if (!json) printReport(report, (Date.now() - started) / 1000);
      } finally {
        if (tmp) fs.rmSync(path.dirname(tmp), { recursive: true, force: true });
      }
    }
    return out;
  });
  if (json) console.log(JSON.stringify(reports, null, 2));
  return reports.every((r) => r.ok) ? 0 : 1;
}

async function spoolStdin(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-import-"));
  const file = path.join(dir, "stdin");
  await pipeline(process.stdin, fs.createWriteStream(file));
  return file;
}

function printReport(r: ImportReport, secs: number) {
  if (r.ok) {
    for (const run of r.runs) {
      if (run.replaced) console.log(`replaced run ${run.key}`);
      console.log(`imported ${run.key}: ${run.items} items, ${run.generations} generations, ${run.steps} steps`);
    }
    for (const note of r.notes) console.log(note);
    console.log(
      `${r.file} (${r.format ? FORMAT_LABEL[r.format] : "?"}): ${r.runs.length} run(s), ${r.generations} generations in ${secs.toFixed(1)}s`,
    );
  } else {
    for (const e of r.errors) console.error(formatLineError(e));
    const more = r.truncated ? ` (stopped after ${r.errors.length}; there are more)` : "";
    console.error(`${r.file}: ${r.errors.length} error(s)${more}; nothing from this file was imported`);
  }
}
