import { env } from "../env";

// Per-principal token bucket for the write API, held in the server process's memory: each key
// (a token or a user) starts with `burst` requests and earns `ratePerMin` more per minute, up to
// `burst`. A single process is how Stepwise is deployed; several processes would each allow the
// full rate (documented in docs/security.md).
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

const g = globalThis as unknown as { __stepwiseWriteLimiter?: TokenBucketLimiter; __stepwiseLoginLimiter?: TokenBucketLimiter };

/** The process-wide limiter of the write API (POST /api/v1/runs, /import, /jobs, share links). */
export function writeLimiter(): TokenBucketLimiter {
  g.__stepwiseWriteLimiter ??= new TokenBucketLimiter({ ratePerMin: env.STEPWISE_WRITE_RATE_PER_MIN, burst: env.STEPWISE_WRITE_BURST });
  return g.__stepwiseWriteLimiter;
}

/** Sign-in attempts per email: slows password guessing to 5 a minute after a burst of 10. */
export function loginLimiter(): TokenBucketLimiter {
  g.__stepwiseLoginLimiter ??= new TokenBucketLimiter({ ratePerMin: 5, burst: 10 });
  return g.__stepwiseLoginLimiter;
}
