import { Readable, Transform } from "node:stream";
import zlib from "node:zlib";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { jsonError } from "./responses";

// Request bodies are streamed, never buffered whole, so a limit is a byte counter on the way
// in: an honest Content-Length over it is refused before reading, and a body that grows past it
// (chunked, or a lying header) is cut off and answered with the same 413.
export const MB = 1024 * 1024;

/** STEPWISE_…_MB as whole bytes. */
export function mbToBytes(mb: number): number {
  return Math.floor(mb * MB);
}

export function formatLimit(bytes: number): string {
  if (bytes >= 1024 * MB) return `${+(bytes / (1024 * MB)).toFixed(2)} GB`;
  return bytes >= MB ? `${+(bytes / MB).toFixed(2)} MB` : `${+(bytes / 1024).toFixed(1)} kB`;
}

export function tooLarge(maxBytes: number, what = "the request body") {
  return jsonError(413, `${what} is over the limit of ${formatLimit(maxBytes)}`, { limit_bytes: maxBytes });
}

/** True when the request declares a body longer than the limit. */
export function declaredOver(headers: Headers, maxBytes: number): boolean {
  const n = Number(headers.get("content-length"));
  return Number.isFinite(n) && n > maxBytes;
}

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the request body is over the limit of ${formatLimit(limit)}`);
  }
}

/** The body as a Node stream that errors with BodyTooLargeError once it passes `maxBytes`. */
export function limitedBody(body: ReadableStream<Uint8Array>, maxBytes: number): { stream: Readable; exceeded: () => boolean } {
  let bytes = 0;
  let over = false;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        over = true;
        return cb(new BodyTooLargeError(maxBytes));
      }
      cb(null, chunk);
    },
  });
  const source = Readable.fromWeb(body as unknown as NodeReadableStream<Uint8Array>);
  source.on("error", (e) => counter.destroy(e));
  // Stop reading the socket once the limit is hit.
  counter.on("error", () => source.destroy());
  return { stream: source.pipe(counter), exceeded: () => over };
}

/** A JSON body read whole (small APIs), or "too-large" / "invalid" without buffering past the limit. */
export async function readJsonLimited(
  req: Request,
  maxBytes: number,
): Promise<{ ok: true; value: unknown } | { ok: false; reason: "too-large" | "invalid" }> {
  if (declaredOver(req.headers, maxBytes)) return { ok: false, reason: "too-large" };
  if (!req.body) return { ok: false, reason: "invalid" };
  const { stream, exceeded } = limitedBody(req.body, maxBytes);
  const chunks: Buffer[] = [];
  try {
    for await (const c of stream) chunks.push(c as Buffer);
  } catch {
    return { ok: false, reason: exceeded() ? "too-large" : "invalid" };
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
  } catch {
    return { ok: false, reason: "invalid" };
  }
}

export type DecodedBody =
  { ok: true; stream: Readable; exceeded: () => boolean; corrupt: () => string | null } | { ok: false; response: Response };

/**
 * The request body decoded per Content-Encoding (identity or gzip; `stepwise push` sends gzip),
 * as a stream that errors once it passes `maxBytes`. Both sides are counted: the bytes on the
 * wire, and the decompressed bytes, so a small gzip that inflates past the limit (a gzip bomb)
 * gets the same 413 as a large plain body, having decompressed at most `maxBytes` plus a chunk.
 * `corrupt()` tells a body that is not valid gzip (400) from a cut-off one.
 */
export function decodedBody(req: Request, maxBytes: number, what = "the request body"): DecodedBody {
  const encoding = (req.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding !== "identity" && encoding !== "gzip" && encoding !== "x-gzip")
    return { ok: false, response: jsonError(415, `Content-Encoding ${encoding} is not supported: send identity or gzip`) };
  if (!req.body) return { ok: false, response: jsonError(400, `empty body: ${what} is missing`) };
  const wire = limitedBody(req.body, maxBytes);
  if (encoding === "identity") return { ok: true, stream: wire.stream, exceeded: wire.exceeded, corrupt: () => null };
  let bad: string | null = null;
  let inflated = 0;
  let over = false;
  const gunzip = zlib.createGunzip();
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      inflated += chunk.length;
      if (inflated > maxBytes) {
        over = true;
        return cb(new BodyTooLargeError(maxBytes));
      }
      cb(null, chunk);
    },
  });
  wire.stream.on("error", (e) => gunzip.destroy(e));
  gunzip.on("error", (e) => {
    if (!wire.exceeded() && !over && (e as { code?: string }).code?.startsWith("Z_")) bad = `the body is not valid gzip (${e.message})`;
    counter.destroy(e);
  });
  counter.on("error", () => {
    gunzip.destroy();
    wire.stream.destroy();
  });
  return {
    ok: true,
    stream: wire.stream.pipe(gunzip).pipe(counter),
    exceeded: () => over || wire.exceeded(),
    corrupt: () => bad,
  };
}
