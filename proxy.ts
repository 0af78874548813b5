import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { SESSION_COOKIE } from "@/lib/auth/sessions";
import { SHARE_COOKIE } from "@/lib/auth/share-links";
import { newNonce, pageCsp } from "@/lib/security/headers";

// Next 16's proxy (formerly middleware) for pages: a fresh CSP nonce per request, the current
// path for the sign-in redirect, and, in private mode, a cheap redirect of cookie-less visitors
// to /login. It is NOT the access check: a proxy can be bypassed or skipped (prefetches), so
// every page checks before it reads (lib/auth/server.ts: requireReader, requireRunAccess) and
// every route handler too (lib/auth/request.ts); reads of a run need the RunAccess they return.
// API routes are not matched: a proxy would buffer request bodies (10 MB cap, truncating). Nor
// are link-preview images (/og/): they check access themselves and answer strangers with the
// generic card, since a chat client fetching one has no cookie and must get an image.
const PUBLIC_PATHS = [/^\/login(\/|$)/, /^\/share\//, /^\/icon\.svg$/];

export function proxy(req: NextRequest) {
  const { pathname, search } = req.nextUrl;
  const https = req.headers.get("x-forwarded-proto") === "https" || req.nextUrl.protocol === "https:";
  if (
    env.STEPWISE_ACCESS === "private" &&
    !PUBLIC_PATHS.some((r) => r.test(pathname)) &&
    !req.cookies.has(SESSION_COOKIE) &&
    !req.cookies.has(SHARE_COOKIE)
  ) {
    const login = new URL("/login", req.url);
    if (pathname !== "/") login.searchParams.set("next", pathname + search);
    return NextResponse.redirect(login);
  }
  const nonce = newNonce();
  const csp = pageCsp(nonce, { dev: process.env.NODE_ENV === "development", https });
  const headers = new Headers(req.headers);
  // Next reads the nonce from the request's CSP header and puts it on its scripts.
  headers.set("content-security-policy", csp);
  headers.set("x-nonce", nonce);
  headers.set("x-stepwise-path", pathname + search);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("Content-Security-Policy", csp);
  return res;
}

export const config = {
  matcher: [
    {
      source: "/((?!api/|export/|og/|_next/static|_next/image|favicon\\.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
