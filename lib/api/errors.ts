import { randomUUID } from "node:crypto";
import { NextResponse } from "next/server";
import { asStoreUnavailable } from "../db";

// How route handlers fail. The store unreachable: 503 with Retry-After, the one failure a client
// should retry. Anything else thrown is a bug: 500 with a request id and no internal message
// (error texts can carry file paths, SQL or stored values); the message and stack go to the
// server's log under the same id, where the operator finds them.

export const RETRY_AFTER_SECONDS = 5;

export function storeUnavailable(requestId: string = randomUUID()): NextResponse {
  return NextResponse.json(
    { error: "the store is unavailable", request_id: requestId },
    { status: 503, headers: { "Retry-After": String(RETRY_AFTER_SECONDS), "X-Request-Id": requestId, "cache-control": "no-store" } },
  );
}

/** The response for anything a handler threw, logged with a request id. */
export function errorResponse(e: unknown, req?: Request): NextResponse {
  const requestId = randomUUID();
  const where = req ? `${req.method} ${new URL(req.url).pathname}` : "request";
  const down = asStoreUnavailable(e);
  if (down) {
    console.error(`[stepwise] ${where} ${requestId}: store unavailable: ${down.message}`);
    return storeUnavailable(requestId);
  }
  console.error(`[stepwise] ${where} ${requestId}: internal error:`, e);
  return NextResponse.json(
    { error: "internal error", request_id: requestId },
    { status: 500, headers: { "X-Request-Id": requestId, "cache-control": "no-store" } },
  );
}

/**
 * A route handler whose throws become errorResponse: 503 when the store is unreachable, else
 * 500 without the message. Handlers still answer their own 4xx.
 */
export function apiRoute<R extends Request, C extends unknown[]>(
  handler: (req: R, ...ctx: C) => Promise<Response>,
): (req: R, ...ctx: C) => Promise<Response> {
  return async (req, ...ctx) => {
    try {
      return await handler(req, ...ctx);
    } catch (e) {
      return errorResponse(e, req);
    }
  };
}
