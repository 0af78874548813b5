// One upload of `stepwise push`: the source streamed gzip-compressed to the server with a progress
// bar, resolved with the server's answer as soon as it comes.
import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";
import { progressBar } from "../progress";
import type { Source } from "./sources";

export interface ServerAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | null;
  text: string;
}

export class PushError extends Error {}

/** The server URL without a trailing slash (a server under a path prefix keeps it). */
export const serverBase = (server: URL) => server.origin + server.pathname.replace(/\/+$/, "");

/** Streams the source gzip-compressed; resolves with the server's answer as soon as it comes (even before the body is all sent). */
export function send(url: URL, token: string, source: Source): Promise<ServerAnswer> {
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
