import { env } from "../env";

// Cookie attributes in one place. HttpOnly: scripts never see a session. SameSite=Lax: other
// sites' forms and fetches do not carry it on POST. Secure whenever the request came over https
// (directly or as told by a reverse proxy) or STEPWISE_SECURE_COOKIES=1 forces it.
export function isSecureRequest(headers: Headers, url?: string): boolean {
  if (env.STEPWISE_SECURE_COOKIES || env.STEPWISE_PUBLIC_URL?.startsWith("https:")) return true;
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  if (proto) return proto === "https";
  return url ? url.startsWith("https:") : false;
}

export function cookieOptions(secure: boolean, expires?: Date) {
  return { httpOnly: true, sameSite: "lax" as const, secure, path: "/", ...(expires ? { expires } : {}) };
}

/**
 * Unsafe requests authenticated by a cookie must come from our own pages (CSRF). With
 * STEPWISE_PUBLIC_URL set, "our own" is that origin only, whatever Host the proxy passes.
 */
export function isSameOrigin(headers: Headers): boolean {
  const origin = headers.get("origin");
  if (env.STEPWISE_PUBLIC_URL && origin && origin !== "null") return origin === env.STEPWISE_PUBLIC_URL;
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");
  if (origin && origin !== "null") {
    try {
      return !!host && new URL(origin).host === host;
    } catch {
      return false;
    }
  }
  // No Origin (older browsers on same-origin requests): trust Fetch Metadata when present.
  return headers.get("sec-fetch-site") === "same-origin";
}
