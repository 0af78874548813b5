import type { NextRequest } from "next/server";
import { jsonError } from "../api/responses";
import { writeLimiter } from "../api/rate-limit";
import type { Db } from "../db";
import { env } from "../env";
import { isSameOrigin } from "./cookies";
import { canReadAll, canReadRun, canWrite, type AccessMode, type Principal } from "./policy";
import { resolvePrincipal, type Resolved } from "./principal";
import { SESSION_COOKIE } from "./sessions";
import { SHARE_COOKIE } from "./share-links";

// Authorization for route handlers, from the request itself (no next/headers), so the API is
// checked even when the proxy is bypassed and the handlers can be tested directly.
export type Gate = { ok: true; principal: Principal } | { ok: false; response: Response };

export function requestPrincipal(prisma: Db, req: NextRequest): Promise<Resolved> {
  return resolvePrincipal(prisma, {
    authorization: req.headers.get("authorization"),
    sessionCookie: req.cookies.get(SESSION_COOKIE)?.value,
    shareCookie: req.cookies.get(SHARE_COOKIE)?.value,
  });
}

const unauthorized = (what: string) =>
  jsonError(
    401,
    `${what} needs a valid API token (Authorization: Bearer <token>; \`stepwise token create\`) or a signed-in account`,
    {},
    { "WWW-Authenticate": 'Bearer realm="stepwise"' },
  );

/** Writes: an editor's token or session (same-origin only), within the per-principal rate limit. */
export async function authorizeWrite(prisma: Db, req: NextRequest, what = "this request"): Promise<Gate> {
  const r = await requestPrincipal(prisma, req);
  const p = r.principal;
  if (r.badToken || p.kind === "anonymous") return { ok: false, response: unauthorized(what) };
  if (r.viaCookie && !isSameOrigin(req.headers))
    return { ok: false, response: jsonError(403, "cross-site request refused: send an API token, or use the dashboard's own pages") };
  if (!canWrite(p)) return { ok: false, response: jsonError(403, `${what} needs the editor or admin role (you are ${p.role})`) };
  const d = writeLimiter().take(p.kind === "token" ? `token:${p.tokenId}` : `user:${p.userId}`);
  if (!d.ok) {
    return {
      ok: false,
      response: jsonError(
        429,
        `too many write requests: retry in ${d.retryAfterSeconds} s`,
        { retry_after: d.retryAfterSeconds },
        { "Retry-After": String(d.retryAfterSeconds) },
      ),
    };
  }
  return { ok: true, principal: p };
}

/** Editor-only reads (share-link lists): the role check without the CSRF check or the write budget,
 *  since a GET changes nothing and its answer cannot be read by another origin. */
export async function authorizeEditorRead(prisma: Db, req: NextRequest, what = "this request"): Promise<Gate> {
  const r = await requestPrincipal(prisma, req);
  const p = r.principal;
  if (r.badToken || p.kind === "anonymous") return { ok: false, response: unauthorized(what) };
  if (!canWrite(p)) return { ok: false, response: jsonError(403, `${what} needs the editor or admin role (you are ${p.role})`) };
  return { ok: true, principal: p };
}

/** Reads of everything (leaderboard, run list, jobs): public in open mode. */
export async function authorizeRead(prisma: Db, req: NextRequest, mode: AccessMode = env.STEPWISE_ACCESS): Promise<Gate> {
  if (mode === "open" && !req.headers.get("authorization")) return { ok: true, principal: { kind: "anonymous", shares: [] } };
  const r = await requestPrincipal(prisma, req);
  if (r.badToken || !canReadAll(r.principal, mode)) return { ok: false, response: unauthorized("reading this private dashboard") };
  return { ok: true, principal: r.principal };
}

/** Reads of one run: everything-readers, or a share link for that run key. */
export async function authorizeRunRead(
  prisma: Db,
  req: NextRequest,
  runKey: string,
  mode: AccessMode = env.STEPWISE_ACCESS,
): Promise<Gate> {
  if (mode === "open" && !req.headers.get("authorization")) return { ok: true, principal: { kind: "anonymous", shares: [] } };
  const r = await requestPrincipal(prisma, req);
  if (r.badToken || !canReadRun(r.principal, mode, runKey)) return { ok: false, response: unauthorized("reading this run") };
  return { ok: true, principal: r.principal };
}

/** The origin the client used (Host / X-Forwarded-*), for links handed back to it. */
export function requestOrigin(headers: Headers, fallback: string): string {
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");
  if (!host || !/^[\w.-]+(:\d+)?$|^\[[\d:a-f]+\](:\d+)?$/i.test(host)) return fallback;
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? "https" : new URL(fallback).protocol.replace(":", "");
  return `${proto}://${host}`;
}
