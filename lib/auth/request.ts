import type { NextRequest } from "next/server";
import { jsonError } from "../api/responses";
import { takeFromBucket, writeLimits } from "../api/rate-limit";
import type { Store } from "../db";
import { env } from "../env";
import { readContextOf, type ReadContext } from "../read-context";
import { isSameOrigin } from "./cookies";
import { ANONYMOUS, canReadAll, canWrite, safeNextPath, type AccessMode, type Principal } from "./policy";
import { resolvePrincipal, type Resolved } from "./principal";
import { RunAccess } from "./run-access";
import { SESSION_COOKIE } from "./sessions";
import { SHARE_COOKIE } from "./share-links";

// Authorization for route handlers, from the request itself (no next/headers), so the API is
// checked even when the proxy is bypassed and the handlers can be tested directly.
export type Gate = { ok: true; principal: Principal } | { ok: false; response: Response };
export type ReadGate = { ok: true; ctx: ReadContext } | { ok: false; response: Response };
export type RunGate = { ok: true; ctx: ReadContext; run: RunAccess } | { ok: false; response: Response };

export function requestPrincipal(store: Store, req: NextRequest): Promise<Resolved> {
  return resolvePrincipal(store, {
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
export async function authorizeWrite(store: Store, req: NextRequest, what = "this request"): Promise<Gate> {
  const r = await requestPrincipal(store, req);
  const p = r.principal;
  if (r.badToken || p.kind === "anonymous") return { ok: false, response: unauthorized(what) };
  if (r.viaCookie && !isSameOrigin(req.headers))
    return { ok: false, response: jsonError(403, "cross-site request refused: send an API token, or use the dashboard's own pages") };
  if (!canWrite(p)) return { ok: false, response: jsonError(403, `${what} needs the editor or admin role (you are ${p.role})`) };
  const d = await takeFromBucket(
    store.prisma,
    p.kind === "token" ? `token:${p.tokenId}` : p.kind === "user" ? `user:${p.userId}` : p.kind,
    writeLimits(),
  );
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
export async function authorizeEditorRead(store: Store, req: NextRequest, what = "this request"): Promise<Gate> {
  const r = await requestPrincipal(store, req);
  const p = r.principal;
  if (r.badToken || p.kind === "anonymous") return { ok: false, response: unauthorized(what) };
  if (!canWrite(p)) return { ok: false, response: jsonError(403, `${what} needs the editor or admin role (you are ${p.role})`) };
  return { ok: true, principal: p };
}

/**
 * The read context of a route handler, from the request itself. Open mode without an
 * Authorization header skips the lookups: everyone may read, so who is asking changes nothing.
 */
export async function requestReadContext(
  store: Store,
  req: NextRequest,
  mode: AccessMode = env.STEPWISE_ACCESS,
): Promise<{ ctx: ReadContext; badToken: boolean }> {
  if (mode === "open" && !req.headers.get("authorization")) return { ctx: readContextOf(store, ANONYMOUS, mode), badToken: false };
  const r = await requestPrincipal(store, req);
  return { ctx: readContextOf(store, r.principal, mode), badToken: r.badToken };
}

/** Reads of everything (leaderboard, run list, jobs): public in open mode. */
export async function authorizeRead(store: Store, req: NextRequest, mode: AccessMode = env.STEPWISE_ACCESS): Promise<ReadGate> {
  const { ctx, badToken } = await requestReadContext(store, req, mode);
  if (badToken || !canReadAll(ctx.principal, ctx.mode)) return { ok: false, response: unauthorized("reading this private dashboard") };
  return { ok: true, ctx };
}

/**
 * Reads of one run: everything-readers, or a share link for that run key. Refused before the
 * store is asked about the run, so a refusal is the same whether the run exists or not; an
 * unknown run the caller may read is 404.
 */
export async function authorizeRunRead(
  store: Store,
  req: NextRequest,
  runKey: string,
  mode: AccessMode = env.STEPWISE_ACCESS,
): Promise<RunGate> {
  const { ctx, badToken } = await requestReadContext(store, req, mode);
  if (badToken) return { ok: false, response: unauthorized("reading this run") };
  const r = await RunAccess.check(ctx, runKey);
  if (r.ok) return { ok: true, ctx, run: r.run };
  if (r.refusal === "sign-in") return { ok: false, response: unauthorized("reading this run") };
  return { ok: false, response: jsonError(404, `no run with key '${runKey}'`) };
}

/** A browser's way to be refused: to sign in, back to this URL afterwards. */
function signInRedirect(req: NextRequest): Response {
  const next = safeNextPath(req.nextUrl.pathname + req.nextUrl.search);
  const location = next === "/" ? "/login" : `/login?${new URLSearchParams({ next })}`;
  return new Response(null, { status: 307, headers: { Location: location, "cache-control": "no-store" } });
}

const notFoundText = () =>
  new Response("run not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });

/** Exports of everything (the leaderboard), opened by browsers: strangers are sent to sign in. */
export async function authorizeExport(store: Store, req: NextRequest): Promise<ReadGate> {
  const { ctx, badToken } = await requestReadContext(store, req);
  if (badToken || !canReadAll(ctx.principal, ctx.mode)) return { ok: false, response: signInRedirect(req) };
  return { ok: true, ctx };
}

/** Exports of one run, opened by browsers: sign in, or a 404 that is the same for every refused run. */
export async function authorizeRunExport(store: Store, req: NextRequest, runKey: string): Promise<RunGate> {
  const { ctx, badToken } = await requestReadContext(store, req);
  if (badToken) return { ok: false, response: signInRedirect(req) };
  const r = await RunAccess.check(ctx, runKey);
  if (r.ok) return { ok: true, ctx, run: r.run };
  return { ok: false, response: r.refusal === "sign-in" ? signInRedirect(req) : notFoundText() };
}

/** The origin the client used (Host / X-Forwarded-*), for links handed back to it. */
export function requestOrigin(headers: Headers, fallback: string): string {
  if (env.STEPWISE_PUBLIC_URL) return env.STEPWISE_PUBLIC_URL;
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");
  if (!host || !/^[\w.-]+(:\d+)?$|^\[[\d:a-f]+\](:\d+)?$/i.test(host)) return fallback;
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? "https" : new URL(fallback).protocol.replace(":", "");
  return `${proto}://${host}`;
}
