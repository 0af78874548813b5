// Response security headers. Pages get a per-request nonce CSP from proxy.ts (Next applies the
// nonce to its own scripts during dynamic rendering); everything else gets the static headers
// from next.config.js. Pure functions so tests/unit/auth-headers.test.ts can check the policy.

/** Content-Security-Policy of a page: only our scripts (nonce, and what they load), no plugins, no framing. */
export function pageCsp(nonce: string, opts: { dev?: boolean; https?: boolean } = {}): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic' lets Next's nonced bootstrap load its chunks; 'self' is the CSP2 fallback.
    // React needs eval only in development (error overlays).
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ""}`,
    // Style attributes cannot carry a nonce and the charts set them (SVG geometry, colours), so
    // inline styles are allowed. Model output is never rendered as HTML, so no style it contains
    // ever reaches the DOM as a style.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(opts.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** JSON, CSV and other non-page responses: nothing to run, nothing to frame. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

export const STATIC_HEADERS: { key: string; value: string }[] = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  // Run keys, item ids and share-link tokens live in URLs: never send them to other sites.
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Cross-Origin-Resource-Policy", value: "same-origin" },
];

/** HSTS, sent only when the request arrived over https (browsers ignore it on http anyway). */
export const HSTS = { key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" };

/** A fresh nonce per request: 16 random bytes, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString("base64");
}
