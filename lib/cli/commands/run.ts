// `stepwise run`: sends a dataset to an OpenAI-compatible chat-completions server and streams
// the results into the store (lib/runner/run.ts). Run again with the same --run-key to resume.
import { parseArgs } from "node:util";
import { progressBar } from "../progress";
import { withStore } from "../store";
import { UsageError } from "../usage-error";
import { readDatasetFile } from "../../runner/dataset";
import { runCliSchema } from "../../runner/options";
import { readPriceFile } from "../../runner/pricing";
import { executeRun } from "../../runner/run";

export const RUN_HELP = `Usage: stepwise run --dataset FILE --endpoint URL --model NAME --run-key KEY [options]

Sends every item of a dataset (from \`stepwise generate\`) to an OpenAI-compatible
/v1/chat/completions server and writes each result into the store as it arrives.
Interrupted? Run the same command again: stored generations are skipped, none is duplicated.

  --dataset FILE          dataset file (native JSONL; outputs, if any, are ignored)
  --endpoint URL          server base URL, e.g. http://127.0.0.1:8000/v1
  --model NAME            model name sent to the server and stored with the run
  --run-key KEY           run key in the store (resume key)
  --concurrency N         requests in flight [4]
  --api-key-env VAR       read the API key from environment variable VAR
  --timeout-ms MS         per-request timeout [120000]
  --max-retries N         retries per request on 429/5xx/timeouts/network/malformed replies [6]
  --epochs N              generations per item [1]
  --temperature T         sampling temperature [0]
  --max-tokens N          max_tokens per request [server default]
  --prices FILE           JSON price table {"model": {"input": USD/1M, "output": USD/1M}}
  --refresh-every N       refresh stored metrics after N new generations [25]
  -h, --help              show this help
`;

const OPTIONS = {
  dataset: { type: "string" },
  endpoint: { type: "string" },
  model: { type: "string" },
  "run-key": { type: "string" },
  concurrency: { type: "string" },
  "api-key-env": { type: "string" },
  "timeout-ms": { type: "string" },
  "max-retries": { type: "string" },
  epochs: { type: "string" },
  temperature: { type: "string" },
  "max-tokens": { type: "string" },
  prices: { type: "string" },
  "refresh-every": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());

export async function runCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false });
  if (values.help) {
    process.stdout.write(RUN_HELP);
    return 0;
  }
  const input: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) if (k !== "help" && v !== undefined) input[camel(k)] = v;
  const parsed = runCliSchema.safeParse(input);
  if (!parsed.success)
    throw new UsageError(parsed.error.issues.map((i) => `--${kebab(String(i.path[0] ?? "options"))}: ${i.message}`).join("\n"));
  const opts = parsed.data;
  let apiKey: string | null = null;
  if (opts.apiKeyEnv) {
    apiKey = process.env[opts.apiKeyEnv] ?? null;
    if (!apiKey) throw new UsageError(`--api-key-env: environment variable ${opts.apiKeyEnv} is not set`);
  }
  const prices = opts.prices ? readPriceFile(opts.prices) : undefined;
  const dataset = await readDatasetFile(opts.dataset);

  const stop = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) process.exit(130); // second Ctrl-C: leave now
    process.stderr.write("\nstopping: finishing the store writes (Ctrl-C again to quit at once)\n");
    stop.abort(new Error("interrupted"));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const bar = progressBar(`run ${opts.runKey}`, "gen");
  try {
    const p = await withStore((store) =>
      executeRun(store, {
        settings: opts,
        dataset,
        prices,
        apiKey,
        signal: stop.signal,
        onProgress: (q) => bar.update(q.done, q.total, `${q.failed} failed · ${q.retries} retries · ${q.inFlight} in flight`),
      }),
    );
    bar.done();
    const resumed = p.skipped ? `, ${p.skipped} already stored` : "";
    console.log(
      `${p.key}: ${p.done}/${p.total} generations stored (${p.added} new${resumed}), ${p.retries} retries, ${p.failed} failed · ${p.status}`,
    );
    for (const e of p.errors) console.error(`  ${e}`);
    if (p.status === "complete") return 0;
    console.error(`the run is not complete: run the same command again to resume (stored generations are skipped)`);
    return stop.signal.aborted ? 130 : 1;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
