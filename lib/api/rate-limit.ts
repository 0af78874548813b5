import { sqltag as sql } from "@prisma/client/runtime/client";
import type { Db } from "../db";
import { env } from "../env";

// Per-principal token buckets: each key (a token or a user) starts with `burst` requests and
// earns `ratePerMin` more per minute, up to `burst`. The write API's buckets live in the store
// (takeWrite), so several server processes on one store share one budget; sign-in attempts are
// limited in the process's memory (TokenBucketLimiter).
export interface RateLimitOptions {
  ratePerMin: number;
  burst: number;
  /** milliseconds; injectable for tests */
  now?: () => number;
  /** buckets kept before full (idle) ones are dropped, so memory stays bounded */
  maxKeys?: number;
}

export type RateDecision = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

export class TokenBucketLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(private readonly opts: RateLimitOptions) {
    if (!(opts.ratePerMin > 0) || !(opts.burst >= 1)) throw new Error("rate limit: ratePerMin > 0 and burst ≥ 1 are required");
    this.perMs = opts.ratePerMin / 60_000;
    this.now = opts.now ?? Date.now;
    this.maxKeys = opts.maxKeys ?? 10_000;
  }

  /** Takes one request from `key`'s bucket, or says how long until one is available. */
  take(key: string): RateDecision {
    const t = this.now();
    const b = this.refill(key, t);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { ok: true, remaining: Math.floor(b.tokens) };
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - b.tokens) / this.perMs / 1000)) };
  }

  private refill(key: string, t: number) {
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size >= this.maxKeys) this.evictFull(t);
      b = { tokens: this.opts.burst, at: t };
      this.buckets.set(key, b);
      return b;
    }
    b.tokens = Math.min(this.opts.burst, b.tokens + Math.max(0, t - b.at) * this.perMs);
    b.at = t;
    return b;
  }

  // A bucket that has refilled completely is the same as no bucket.
  private evictFull(t: number) {
    for (const [k, b] of this.buckets) {
      if (b.tokens + (t - b.at) * this.perMs >= this.opts.burst) this.buckets.delete(k);
    }
    if (this.buckets.size >= this.maxKeys) this.buckets.delete(this.buckets.keys().next().value as string);
  }

  get size(): number {
    return this.buckets.size;
  }
}

const g = globalThis as unknown as { __stepwiseLoginLimiter?: TokenBucketLimiter };

/**
 * Takes one request from `key`'s bucket in the store (the write API: POST /api/v1/runs, /import,
 * /jobs, share links). One statement refills, takes and records whether it could, atomically on
 * both stores (an upsert holds the row's lock), so concurrent requests on several processes never
 * spend more than the budget. Portable SQL: CASE instead of MIN/LEAST, CASTs so PostgreSQL types
 * the parameters.
 */
export async function takeWrite(prisma: Db, key: string, opts: RateLimitOptions = writeLimits()): Promise<RateDecision> {
  const now = Math.round((opts.now ?? Date.now)());
  const perMs = opts.ratePerMin / 60_000;
  const burst = opts.burst;
  const at = sql`CAST(${now} AS BIGINT)`;
  // the old row refilled up to now (never down, should another process's clock lag), uncapped;
  // every SET expression sees the old row
  const refilled = sql`("RateBucket"."tokens" + CAST(CASE WHEN ${at} > "RateBucket"."at" THEN ${at} - "RateBucket"."at" ELSE 0 END AS DOUBLE PRECISION) * CAST(${perMs} AS DOUBLE PRECISION))`;
  const capped = sql`CASE WHEN ${refilled} < CAST(${burst} AS DOUBLE PRECISION) THEN ${refilled} ELSE CAST(${burst} AS DOUBLE PRECISION) END`;
  const rows = await prisma.$queryRaw<{ granted: unknown; tokens: unknown }[]>(sql`
    INSERT INTO "RateBucket" ("key", "tokens", "at", "granted")
    VALUES (${key}, CAST(${burst - 1} AS DOUBLE PRECISION), ${at}, true)
    ON CONFLICT ("key") DO UPDATE SET
      "tokens" = CASE WHEN ${capped} >= 1 THEN ${capped} - 1 ELSE ${capped} END,
      "granted" = ${capped} >= 1,
      "at" = CASE WHEN ${at} > "RateBucket"."at" THEN ${at} ELSE "RateBucket"."at" END
    RETURNING "granted", "tokens"`);
  const row = rows[0];
  if (row.granted === true || row.granted === 1 || row.granted === 1n) return { ok: true, remaining: Math.floor(Number(row.tokens)) };
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - Number(row.tokens)) / perMs / 1000)) };
}

export function writeLimits(): RateLimitOptions {
  return { ratePerMin: env.STEPWISE_WRITE_RATE_PER_MIN, burst: env.STEPWISE_WRITE_BURST };
}

/** Sign-in attempts per email: slows password guessing to 5 a minute after a burst of 10. */
export function loginLimiter(): TokenBucketLimiter {
  g.__stepwiseLoginLimiter ??= new TokenBucketLimiter({ ratePerMin: 5, burst: 10 });
  return g.__stepwiseLoginLimiter;
}
