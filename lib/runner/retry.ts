// Retry policy of the chat client, kept apart so it is tested without a server.
// Exponential back-off with "full jitter" (a uniform delay in [0, min(cap, base·2^n)]) spreads
// retries of many concurrent requests instead of having them hit a recovering server together.

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 6, baseDelayMs: 500, maxDelayMs: 30_000 };

/** Full-jitter delay before retry number `attempt` (0 = first retry). */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/**
 * Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); null when
 * absent or unreadable. A date in the past means "now".
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  if (Number.isNaN(t)) return null;
  return Math.max(0, t - now);
}

/** HTTP statuses worth retrying: rate limits, timeouts and server-side failures. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 425 || status === 429 || status >= 500;
}

/** Server-requested waits are honoured, but never beyond this (a broken header must not stall a run for a day). */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;
