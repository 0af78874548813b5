// `stepwise push`: sends results from this machine to a team server. A native JSONL file (or a
// run of the local store, exported on the fly) goes to POST /api/v1/runs, any other file to
// POST /api/v1/import; the body streams gzip-compressed and the server loads it in one
// transaction, so a push that dies half-way leaves the server's run as it was, and pushing the
// same run again replaces it whole.
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import path from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import { exportRun } from "../../store/export";
import { progressBar } from "../progress";
import { UsageError, withStore } from "../store";

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

/** One thing to push: where it goes on the server and how to read it (again, for a retry). */
interface Source {
  label: string;
  route: "/api/v1/runs" | "/api/v1/import";
  /** bytes of the source, when known (progress) */
  size: number | null;
  open(): Readable;
  /** stdin cannot be read twice */
  retryable: boolean;
}

interface ServerAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | null;
  text: string;
}

class PushError extends Error {}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const MAX_WAIT_S = 300;

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
        const source: Source = {
          label: `run ${key}`,
          route: "/api/v1/runs",
          size: null,
          open: () =>
            Readable.from(
              (async function* () {
                for await (const line of exportRun(store.prisma, key)) yield line + "\n";
              })(),
            ),
          retryable: true,
        };
        if (!(await pushOne(server, token, source, retries, key))) failures++;
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

/** The server URL without a trailing slash (a server under a path prefix keeps it). */
const serverBase = (server: URL) => server.origin + server.pathname.replace(/\/+$/, "");

/** Native JSONL when the first non-empty line is a JSON object of type run or item; anything else goes to the importer. */
function isNative(file: string): boolean {
  const fd = fs.openSync(file, "r");
  try {
    const head = Buffer.alloc(1 << 16);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    const first = head
      .subarray(0, n)
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .split("\n")
      .find((l) => l.trim() !== "");
    if (!first) return true; // empty: the server says so
    try {
      const type = (JSON.parse(first) as { type?: unknown })?.type;
      return type === "run" || type === "item"; // as the importer tells native files (lib/import/detect.ts)
    } catch {
      return false;
    }
  } finally {
    fs.closeSync(fd);
  }
}

function fileSource(file: string): Source {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch (e) {
    throw new UsageError(`${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`);
  }
  if (!st.isFile()) throw new UsageError(`${file}: not a file`);
  return {
    label: file,
    route: isNative(file) ? "/api/v1/runs" : "/api/v1/import",
    size: st.size,
    open: () => fs.createReadStream(file),
    retryable: true,
  };
}

function stdinSource(): Source {
  return { label: "stdin", route: "/api/v1/runs", size: null, open: () => process.stdin, retryable: false };
}

/** Pushes one source with retries; prints the outcome. True when the server loaded it. */
async function pushOne(server: URL, token: string, source: Source, retries: number, runKey?: string): Promise<boolean> {
  const url = new URL(serverBase(server) + source.route);
  url.searchParams.set("name", runKey ?? path.basename(source.label));
  for (let attempt = 0; ; attempt++) {
    let answer: ServerAnswer;
    try {
      answer = await send(url, token, source);
    } catch (e) {
      if (e instanceof PushError || !source.retryable || attempt >= retries) {
        console.error(`stepwise push: ${source.label}: ${(e as Error).message}`);
        return false;
      }
      const wait = Math.min(MAX_WAIT_S, 2 ** attempt);
      console.error(`stepwise push: ${source.label}: ${(e as Error).message}; retrying in ${wait} s`);
      await sleep(wait);
      continue;
    }
    if (answer.status >= 200 && answer.status < 300) {
      report(server, source, answer);
      return true;
    }
    if (RETRY_STATUSES.has(answer.status) && source.retryable && attempt < retries) {
      const wait = retryAfter(answer.headers["retry-after"]) ?? Math.min(MAX_WAIT_S, 2 ** attempt);
      console.error(`stepwise push: ${source.label}: server answered ${answer.status} (${serverMessage(answer)}); retrying in ${wait} s`);
      await sleep(wait);
      continue;
    }
    printRefusal(source, answer);
    return false;
  }
}

function retryAfter(header: string | string[] | undefined): number | null {
  const v = Array.isArray(header) ? header[0] : header;
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Math.min(MAX_WAIT_S, Number(v));
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.min(MAX_WAIT_S, Math.max(0, Math.ceil((at - Date.now()) / 1000)));
}

const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));

/** Streams the source gzip-compressed; resolves with the server's answer as soon as it comes (even before the body is all sent). */
function send(url: URL, token: string, source: Source): Promise<ServerAnswer> {
  const bar = progressBar(`push ${source.label}`, "MB");
  let read = 0;
  const input = source.open();
  const gzip = zlib.createGzip({ level: 6 });
  // Written by hand rather than piped so that each chunk read is flushed to the wire: the server
  // sees the body as it is read (a slow source such as stdin streams instead of sitting in
  // zlib's buffer), at a cost of a few bytes per 64 kB.
  input.on("data", (chunk: Buffer) => {
    read += chunk.length;
    bar.update(read / 1e6, source.size === null ? null : source.size / 1e6);
    if (!gzip.write(chunk)) input.pause();
    gzip.flush();
  });
  gzip.on("drain", () => input.resume());
  input.on("end", () => gzip.end());
  input.on("error", (e) => gzip.destroy(e));
  const client = url.protocol === "https:" ? https : http;
  return new Promise<ServerAnswer>((resolve, reject) => {
    let answered = false;
    const req = client.request(
      url,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-encoding": "gzip",
          "content-type": source.route === "/api/v1/runs" ? "application/x-ndjson" : "application/octet-stream",
          accept: "application/json",
          "user-agent": "stepwise-push",
        },
      },
      (res) => {
        answered = true;
        // an early answer (401, 413, …): stop sending the rest
        gzip.unpipe(req);
        if (source.retryable) input.destroy();
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("error", reject);
        res.on("end", () => {
          bar.done();
          const text = Buffer.concat(parts).toString("utf8");
          let body: Record<string, unknown> | null = null;
          try {
            body = JSON.parse(text) as Record<string, unknown>;
          } catch {
            // not JSON (a proxy's error page): shown as text
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
        });
      },
    );
    req.on("error", (e) => {
      bar.done();
      if (!answered) reject(new Error(`could not reach ${url.host}: ${(e as NodeJS.ErrnoException).code ?? e.message}`));
    });
    gzip.on("error", (e) => {
      req.destroy();
      bar.done();
      reject(new PushError(`reading ${source.label}: ${e.message}`));
    });
    gzip.pipe(req);
  });
}

function serverMessage(a: ServerAnswer): string {
  const error = a.body?.error;
  return typeof error === "string" ? error : a.text.trim().slice(0, 200) || `HTTP ${a.status}`;
}

function printRefusal(source: Source, a: ServerAnswer) {
  console.error(`stepwise push: ${source.label}: the server answered ${a.status}: ${serverMessage(a)}`);
  const errors = Array.isArray(a.body?.errors) ? (a.body!.errors as unknown[]) : [];
  for (const e of errors.slice(0, 20)) {
    if (typeof e === "string") console.error(`  ${e}`);
    else if (e && typeof e === "object") {
      const x = e as { file?: string; line?: number; field?: string; message?: string };
      console.error(`  ${x.file ?? source.label}:${x.line ?? "?"}: ${x.field ?? "-"}: ${x.message ?? JSON.stringify(e)}`);
    }
  }
  if (errors.length > 20) console.error(`  … and ${errors.length - 20} more`);
}

function report(server: URL, source: Source, a: ServerAnswer) {
  const runs = Array.isArray(a.body?.runs) ? (a.body!.runs as { key?: string; generations?: number; items?: number }[]) : [];
  if (runs.length === 0) console.log(`${source.label}: loaded (HTTP ${a.status})`);
  for (const r of runs) {
    if (!r.key) continue;
    const link = new URL(`${serverBase(server)}/runs/${encodeURIComponent(r.key)}`);
    const count = r.generations ?? r.items;
    console.log(`${source.label}: ${r.key}${count === undefined ? "" : ` (${count} generations)`} → ${link.href}`);
  }
}
