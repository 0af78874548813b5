import "server-only";
import { cookies, headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { db } from "../db";
import { env } from "../env";
import { canReadAll, canReadRun as allowsRun, canWrite, roleAtLeast, safeNextPath, type Principal, type Role } from "./policy";
import { resolvePrincipal } from "./principal";
import { SESSION_COOKIE } from "./sessions";
import { SHARE_COOKIE } from "./share-links";

// Authorization for server components, server actions and the read queries (lib/queries). The
// proxy only redirects cheaply; these checks are the ones that hold when it is bypassed.
// `cache` makes it one store lookup per request however many queries ask.
export const currentPrincipal = cache(async (): Promise<Principal> => {
  const [h, c] = await Promise.all([headers(), cookies()]);
  const r = await resolvePrincipal(await db(), {
    authorization: h.get("authorization"),
    sessionCookie: c.get(SESSION_COOKIE)?.value,
    shareCookie: c.get(SHARE_COOKIE)?.value,
  });
  return r.principal;
});

export async function currentUser(): Promise<{ userId: number; email: string; role: Role } | null> {
  const p = await currentPrincipal();
  return p.kind === "user" ? { userId: p.userId, email: p.email, role: p.role } : null;
}

/** To sign in, returning to the path being rendered (proxy.ts passes it as a request header). */
async function loginRedirect(need?: Role): Promise<never> {
  const q = new URLSearchParams();
  const next = safeNextPath((await headers()).get("x-stepwise-path"));
  if (next !== "/") q.set("next", next);
  if (need) q.set("need", need);
  redirect(q.size ? `/login?${q}` : "/login");
}

/** Pages and actions for a role: strangers and lower roles go to sign in (as someone who may). */
export async function requireRole(min: Role): Promise<Principal> {
  const p = await currentPrincipal();
  if (p.kind === "anonymous" || !roleAtLeast(p.role, min)) return loginRedirect(min);
  return p;
}

/** Everything-readers only (leaderboard, curves, compare, self-conditioning, jobs). Open mode:
 *  no lookup at all, so public pages cost nothing extra. */
export async function requireReader(): Promise<void> {
  if (env.STEPWISE_ACCESS === "open") return;
  if (!canReadAll(await currentPrincipal(), env.STEPWISE_ACCESS)) await loginRedirect();
}

export async function canReadRun(runKey: string): Promise<boolean> {
  return allowsRun(await currentPrincipal(), env.STEPWISE_ACCESS, runKey);
}

/** One run's pages and queries: readers of everything, or a share link for this key. */
export async function requireRunReader(runKey: string): Promise<void> {
  if (env.STEPWISE_ACCESS === "open") return;
  const p = await currentPrincipal();
  if (allowsRun(p, env.STEPWISE_ACCESS, runKey)) return;
  // A share-link visitor asking for another run learns nothing about it.
  if (p.kind === "anonymous" && p.shares.length) notFound();
  await loginRedirect();
}

export async function currentCanWrite(): Promise<boolean> {
  return canWrite(await currentPrincipal());
}
