// `stepwise push`'s retries: 429/502/503/504 (honouring Retry-After) and connection failures,
// up to --retries, with exponential waits capped at five minutes. A source that cannot be read
// twice (stdin) is not retried.
import path from "node:path";
import type { Source } from "./sources";
import { printRefusal, report, serverMessage } from "./report";
import { PushError, send, serverBase, type ServerAnswer } from "./upload";

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const MAX_WAIT_S = 300;

/** Pushes one source with retries; prints the outcome. True when the server loaded it. */
export async function pushOne(server: URL, token: string, source: Source, retries: number, runKey?: string): Promise<boolean> {
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
