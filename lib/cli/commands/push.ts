// `stepwise push`: sends results from this machine to a team server. A native JSONL file (or a
// run of the local store, exported on the fly) goes to POST /api/v1/runs, any other file to
// POST /api/v1/import; the body streams gzip-compressed and the server loads it in one
// transaction, so a push that dies half-way leaves the server's run as it was, and pushing the
// same run again replaces it whole.
import { parseArgs } from "node:util";
import { pushOne } from "../push/retry";
import { fileSource, runSource, stdinSource } from "../push/sources";
import { withStore } from "../store";
import { UsageError } from "../usage-error";

export const PUSH_HELP = `Usage: stepwise push FILE… --server URL [options]
       stepwise push --run KEY --server URL [options]

Sends results to a Stepwise server: native JSONL files, files of other tools (any format
\`stepwise import\` reads; the server tells the format from the content), or a run of the local
store (DATABASE_URL), exported on the fly. \`-\` reads native JSONL from stdin. Pushing a run
again replaces it on the server whole. Prints the run's URL on the server.

  --server URL       the server's public URL, e.g. https://stepwise.example.org
  --run KEY          push this run of the local store (repeatable)
  --token-env VAR    read the API token from \$VAR [STEPWISE_TOKEN]
  --retries N        retries on 429/502/503/504 and connection failures [5]
  --allow-http       allow sending the token over plain http to a host that is not loopback
  -h, --help         show this help
`;

const OPTIONS = {
  server: { type: "string" },
  run: { type: "string", multiple: true },
  "token-env": { type: "string" },
  retries: { type: "string" },
  "allow-http": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export async function pushCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: true });
  if (values.help) {
    process.stdout.write(PUSH_HELP);
    return 0;
  }
  if (!values.server) throw new UsageError("--server URL is required (the server's public URL)");
  const server = parseServer(values.server, values["allow-http"] ?? false);
  const tokenVar = values["token-env"] ?? "STEPWISE_TOKEN";
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(tokenVar)) throw new UsageError(`--token-env: ${tokenVar} is not an environment variable name`);
  const token = process.env[tokenVar];
  if (!token) throw new UsageError(`set ${tokenVar} to an API token of the server (\`stepwise token create\` there)`);
  const retries = values.retries === undefined ? 5 : Number(values.retries);
  if (!Number.isInteger(retries) || retries < 0 || retries > 50) throw new UsageError("--retries must be an integer from 0 to 50");
  const runs = values.run ?? [];
  if (positionals.length === 0 && runs.length === 0) throw new UsageError("nothing to push: give files, - for stdin, or --run KEY");

  let failures = 0;
  for (const file of positionals) {
    const source = file === "-" ? stdinSource() : fileSource(file);
    if (!(await pushOne(server, token, source, retries))) failures++;
  }
  if (runs.length) {
    await withStore(async (store) => {
      for (const key of runs) {
        const run = await store.prisma.run.findUnique({ where: { key }, select: { key: true } });
        if (!run) {
          console.error(`stepwise push: no run ${key} in the local store`);
          failures++;
          continue;
        }
        if (!(await pushOne(server, token, runSource(store.prisma, key), retries, key))) failures++;
      }
    });
  }
  return failures ? 1 : 0;
}

function parseServer(text: string, allowHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--server: ${text} is not a URL (e.g. https://stepwise.example.org)`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new UsageError("--server must be an http(s) URL");
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (url.protocol === "http:" && !loopback && !allowHttp)
    throw new UsageError(
      `refusing to send the API token over plain http to ${url.host}: use https (or --allow-http on a network you trust)`,
    );
  url.search = "";
  url.hash = "";
  return url;
}
