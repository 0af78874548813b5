import { describe, expect, it } from "vitest";
import { TokenBucketLimiter } from "../../lib/api/rate-limit";

describe("TokenBucketLimiter", () => {
  const clock = () => {
    let t = 1_000_000;
    return { now: () => t, advance: (ms: number) => (t += ms) };
  };

  it("allows a burst, then refuses with a Retry-After that is long enough", () => {
    const c = clock();
    const l = new TokenBucketLimiter({ ratePerMin: 6, burst: 3, now: c.now });
    expect([l.take("a"), l.take("a"), l.take("a")].every((d) => d.ok)).toBe(true);
    const refused = l.take("a");
    expect(refused).toEqual({ ok: false, retryAfterSeconds: 10 });
    c.advance(9_000);
    expect(l.take("a").ok).toBe(false);
    c.advance(1_000);
    expect(l.take("a").ok).toBe(true);
    expect(l.take("a").ok).toBe(false);
  });

  it("keeps one bucket per key", () => {
    const c = clock();
    const l = new TokenBucketLimiter({ ratePerMin: 1, burst: 1, now: c.now });
    expect(l.take("token:1").ok).toBe(true);
    expect(l.take("token:1").ok).toBe(false);
    expect(l.take("token:2").ok).toBe(true);
  });

  it("refills to the burst and no further", () => {
    const c = clock();
    const l = new TokenBucketLimiter({ ratePerMin: 60, burst: 2, now: c.now });
    l.take("k");
    l.take("k");
    c.advance(3_600_000);
    expect(l.take("k")).toEqual({ ok: true, remaining: 1 });
    expect(l.take("k")).toEqual({ ok: true, remaining: 0 });
    expect(l.take("k").ok).toBe(false);
  });

  it("bounds its memory by dropping full buckets first", () => {
    const c = clock();
    const l = new TokenBucketLimiter({ ratePerMin: 60, burst: 5, now: c.now, maxKeys: 100 });
    for (let i = 0; i < 1000; i++) l.take(`k${i}`);
    expect(l.size).toBeLessThanOrEqual(100);
    c.advance(10_000);
    for (let i = 0; i < 1000; i++) l.take(`j${i}`);
    expect(l.size).toBeLessThanOrEqual(100);
  });

  it("a request never waits less than a second and the clock going back does not add tokens", () => {
    const c = clock();
    const l = new TokenBucketLimiter({ ratePerMin: 6000, burst: 1, now: c.now });
    l.take("k");
    const d = l.take("k");
    expect(d.ok ? 0 : d.retryAfterSeconds).toBe(1);
    c.advance(-60_000);
    expect(l.take("k").ok).toBe(false);
  });

  it("rejects nonsense options", () => {
    expect(() => new TokenBucketLimiter({ ratePerMin: 0, burst: 1 })).toThrow();
    expect(() => new TokenBucketLimiter({ ratePerMin: 1, burst: 0 })).toThrow();
  });
});
