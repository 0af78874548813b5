import { sqltag as sql } from "@prisma/client/runtime/client";
import type { Db } from "../db";
import { env } from "../env";

// Token buckets in the store (`RateBucket`): each key (a token, a user, a sign-in account or
// client address) starts with `burst` requests and earns `ratePerMin` more per minute, up to
// `burst`. Being in the store, several server processes on one store share one budget.
export interface RateLimitOptions {
  ratePerMin: number;
  burst: number;
  /** milliseconds; injectable for tests */
  now?: () => number;
}

export type RateDecision = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

/**
 * Takes one request from `key`'s bucket in the store. One statement refills, takes and records
 * whether it could, atomically on both stores (an upsert holds the row's lock), so concurrent
 * requests on several processes never spend more than the budget. Portable SQL: CASE instead of
 * MIN/LEAST, CASTs so PostgreSQL types the parameters.
 */
export async function takeFromBucket(prisma: Db, key: string, opts: RateLimitOptions): Promise<RateDecision> {
  if (!(opts.ratePerMin > 0) || !(opts.burst >= 1)) throw new Error("rate limit: ratePerMin > 0 and burst ≥ 1 are required");
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

/** The write API (POST /api/v1/runs, /import, /jobs, share links): per token or user. */
export function writeLimits(): RateLimitOptions {
  return { ratePerMin: env.STEPWISE_WRITE_RATE_PER_MIN, burst: env.STEPWISE_WRITE_BURST };
}

/**
 * Deletes buckets under `prefix` idle long enough to have refilled completely (a full bucket is
 * the same as none), so keys an attacker makes up (emails, addresses) do not pile up.
 */
export async function pruneFullBuckets(prisma: Db, prefix: string, opts: RateLimitOptions): Promise<number> {
  const now = Math.round((opts.now ?? Date.now)());
  const refillMs = Math.ceil((opts.burst / opts.ratePerMin) * 60_000);
  return prisma.$executeRaw(
    sql`DELETE FROM "RateBucket" WHERE "key" LIKE ${prefix.replace(/[\\%_]/g, "") + "%"} AND "at" < CAST(${now - refillMs} AS BIGINT)`,
  );
}
