import "server-only";
import { cookies, headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { getStore } from "../db";
import { env } from "../env";
import { readContextOf, type ReadContext } from "../read-context";
import { canReadAll, safeNextPath, type Principal, type Role } from "./policy";
import { resolvePrincipal } from "./principal";
import { RunAccess } from "./run-access";
import { SESSION_COOKIE } from "./sessions";
import { SHARE_COOKIE } from "./share-links";

// The read context and access checks of server components and server actions. The proxy only
// redirects cheaply; these are the checks that hold when it is bypassed. Next renders a layout
// and its page in parallel, so every page obtains its own check (requireReader / requireRunAccess)
// before it reads anything; `cache` makes each of them one store lookup per request.

/** The request's read context: the store, its dialect, and who is asking. */
export const readContext = cache(async (): Promise<ReadContext> => {
  const [h, c, store] = await Promise.all([headers(), cookies(), getStore()]);
  const r = await resolvePrincipal(store, {
    authorization: h.get("authorization"),
    sessionCookie: c.get(SESSION_COOKIE)?.value,
    shareCookie: c.get(SHARE_COOKIE)?.value,
  });
  return readContextOf(store, r.principal, env.STEPWISE_ACCESS);
});

export async function currentPrincipal(): Promise<Principal> {
  return (await readContext()).principal;
}

export async function currentUser(): Promise<{ userId: number; email: string; role: Role } | null> {
  const p = await currentPrincipal();
  return p.kind === "user" ? { userId: p.userId, email: p.email, role: p.role } : null;
}

/** To sign in, returning to the path being rendered (proxy.ts passes it as a request header). */
async function loginRedirect(): Promise<never> {
  const next = safeNextPath((await headers()).get("x-stepwise-path"));
  redirect(next !== "/" ? `/login?${new URLSearchParams({ next })}` : "/login");
}

/** Views of everything (leaderboard, curves, compare, self-conditioning, jobs): strangers sign in. */
export const requireReader = cache(async (): Promise<ReadContext> => {
  const ctx = await readContext();
  if (!canReadAll(ctx.principal, ctx.mode)) await loginRedirect();
  return ctx;
});

/**
 * The access check of one run on the request's read context, once per request: a page, its
 * layout and its metadata share the one RunAccess, and with it the reads cached on it
 * (getRunSummary, getGeneration).
 */
export const checkRunAccess = cache(async (key: string) => {
  const ctx = await readContext();
  return { ctx, r: await RunAccess.check(ctx, key) };
});

/**
 * One run's pages: its access proof, or a redirect to sign in, or a 404 (an unknown run, or a
 * share-link holder asking for a run its links do not open: the answer says nothing about it).
 */
export const requireRunAccess = cache(async (key: string): Promise<{ ctx: ReadContext; run: RunAccess }> => {
  const { ctx, r } = await checkRunAccess(key);
  if (r.ok) return { ctx, run: r.run };
  if (r.refusal === "sign-in") return loginRedirect();
  notFound();
});
