import { pruneFullBuckets, takeFromBucket, type RateLimitOptions } from "../api/rate-limit";
import type { Db } from "../db";

// Sign-in attempts, limited in the store (RateBucket) so that every server process on one store
// counts the same attempts: per account (the email typed, known or not: the answer must not tell
// them apart), and per client address when a trusted proxy tells us the address
// (lib/auth/client-address.ts). The address budget is larger: a lab behind one NAT signs in from
// one address.
export const SIGN_IN_LIMITS = {
  account: { ratePerMin: 5, burst: 10 },
  address: { ratePerMin: 20, burst: 40 },
} as const satisfies Record<string, RateLimitOptions>;

export type SignInDecision = { ok: true } | { ok: false; by: "account" | "address"; retryAfterSeconds: number };

const PRUNE_EVERY_MS = 60_000;
const g = globalThis as unknown as { __stepwiseSignInPrunedAt?: number };

export async function takeSignIn(prisma: Db, email: string, address: string | null, now: () => number = Date.now): Promise<SignInDecision> {
  await pruneNow(prisma, now);
  // the address first: a refused address spends nothing of the account's budget
  if (address) {
    const d = await takeFromBucket(prisma, `login:addr:${address}`, { ...SIGN_IN_LIMITS.address, now });
    if (!d.ok) return { ok: false, by: "address", retryAfterSeconds: d.retryAfterSeconds };
  }
  const d = await takeFromBucket(prisma, `login:acct:${email.toLowerCase()}`, { ...SIGN_IN_LIMITS.account, now });
  return d.ok ? { ok: true } : { ok: false, by: "account", retryAfterSeconds: d.retryAfterSeconds };
}

// At most once a minute per process: a DELETE of buckets that have refilled completely.
async function pruneNow(prisma: Db, now: () => number) {
  const t = now();
  if (g.__stepwiseSignInPrunedAt !== undefined && t - g.__stepwiseSignInPrunedAt < PRUNE_EVERY_MS && t >= g.__stepwiseSignInPrunedAt)
    return;
  g.__stepwiseSignInPrunedAt = t;
  await pruneFullBuckets(prisma, "login:acct:", { ...SIGN_IN_LIMITS.account, now });
  await pruneFullBuckets(prisma, "login:addr:", { ...SIGN_IN_LIMITS.address, now });
}
