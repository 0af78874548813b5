import type { Store } from "../db";
import { ANONYMOUS, type Principal } from "./policy";
import { sessionUser } from "./sessions";
import { resolveShareLinks, shareSecretsOf } from "./share-links";
import { tokenForBearer } from "../store/tokens";

// Who is asking, from the three credentials a request can carry: a bearer token (API clients),
// a session cookie (signed-in browsers) and share-link secrets (a cookie set by /share/{token}).
// Shared by route handlers (lib/auth/request.ts) and server components (lib/auth/server.ts).
export interface Credentials {
  authorization: string | null;
  sessionCookie: string | undefined;
  shareCookie: string | undefined;
}

export interface Resolved {
  principal: Principal;
  /** an Authorization header was sent but is not a live token: APIs answer 401, not "anonymous" */
  badToken: boolean;
  /** the principal came from a cookie, so an unsafe method needs a same-origin check (CSRF) */
  viaCookie: boolean;
}

export async function resolvePrincipal(store: Store, c: Credentials): Promise<Resolved> {
  const shares = c.shareCookie ? await resolveShareLinks(store, shareSecretsOf(c.shareCookie)) : [];
  // An empty "Bearer " (a form's blank token field) means "no token": the session decides.
  const authorization = c.authorization && !/^\s*(Bearer)?\s*$/i.test(c.authorization) ? c.authorization : null;
  if (authorization) {
    const t = await tokenForBearer(store.prisma, authorization);
    if (!t) return { principal: { ...ANONYMOUS, shares }, badToken: true, viaCookie: false };
    return { principal: { kind: "token", tokenId: t.id, role: t.role, userId: t.userId, shares }, badToken: false, viaCookie: false };
  }
  const u = c.sessionCookie ? await sessionUser(store, c.sessionCookie) : null;
  if (u) return { principal: { kind: "user", userId: u.userId, email: u.email, role: u.role, shares }, badToken: false, viaCookie: true };
  return { principal: { kind: "anonymous", shares }, badToken: false, viaCookie: shares.length > 0 };
}
