import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

// Session cookies, share links and API tokens are 32 random bytes (256 bits). Nobody can guess
// or brute-force that, so the store keeps a single SHA-256 of each: a stolen database does not
// reveal live secrets, and a lookup by hash is one indexed query. A slow KDF would add nothing
// here; it exists to protect low-entropy passwords (lib/auth/password.ts).
export const SECRET_BYTES = 32;

export function newSecret(prefix = ""): string {
  return prefix + randomBytes(SECRET_BYTES).toString("base64url");
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** Constant-time string comparison (false when lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Shape check before any lookup: base64url of 32 bytes, with an optional known prefix. */
export function looksLikeSecret(s: string, prefix = ""): boolean {
  return s.startsWith(prefix) && /^[A-Za-z0-9_-]{43}$/.test(s.slice(prefix.length));
}
