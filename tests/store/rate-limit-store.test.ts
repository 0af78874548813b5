// The write API's rate limit lives in the store: two server processes (here two connections to
// one store) draw from one budget, concurrent takes never spend more than it, it refills with
// time, and a lagging clock never takes tokens away. Sign-in attempts use the same buckets, per
// account and per client address.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneFullBuckets, takeFromBucket, takeFromBucket as takeWrite } from "../../lib/api/rate-limit";
import { SIGN_IN_LIMITS, takeSignIn } from "../../lib/auth/sign-in-limit";
import { openStore, type Store } from "../../lib/db";
import { STORE_KINDS } from "../helpers/stores";

describe.each(STORE_KINDS)("write rate limit in the $name store", (kind) => {
  let a: Store;
  let b: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const created = await kind.create();
    a = created.store;
    b = await openStore(created.url);
    drop = async () => {
      await b.close();
      await created.drop();
    };
  });
  afterAll(async () => drop?.());

  it("two processes taking at once share one budget", async () => {
    const t = 1_000_000;
    const opts = { ratePerMin: 6, burst: 5, now: () => t };
    const takes = await Promise.all(Array.from({ length: 12 }, (_, i) => takeWrite(i % 2 ? a.prisma : b.prisma, "token:1", opts)));
    expect(takes.filter((d) => d.ok)).toHaveLength(5);
    const refused = takes.filter((d) => !d.ok);
    expect(refused).toHaveLength(7);
    for (const d of refused) expect(d).toEqual({ ok: false, retryAfterSeconds: 10 }); // 6 a minute: one every 10 s
    // another key has its own budget
    expect(await takeWrite(a.prisma, "user:1", opts)).toEqual({ ok: true, remaining: 4 });
  });

  it("refills with time up to the burst, and a lagging clock takes nothing away", async () => {
    const base = 5_000_000;
    let t = base;
    const opts = { ratePerMin: 60, burst: 3, now: () => t };
    for (let i = 0; i < 3; i++) expect((await takeWrite(a.prisma, "token:2", opts)).ok).toBe(true);
    expect(await takeWrite(b.prisma, "token:2", opts)).toEqual({ ok: false, retryAfterSeconds: 1 });
    t = base + 2500; // 2.5 tokens back
    expect(await takeWrite(b.prisma, "token:2", opts)).toEqual({ ok: true, remaining: 1 });
    expect(await takeWrite(a.prisma, "token:2", { ...opts, now: () => base })).toEqual({ ok: true, remaining: 0 }); // clock behind: no refill, no loss
    expect(await takeWrite(a.prisma, "token:2", opts)).toMatchObject({ ok: false });
    t = base + 60_000_000; // long idle: capped at the burst
    expect(await takeWrite(a.prisma, "token:2", opts)).toEqual({ ok: true, remaining: 2 });
  });
});

describe.each(STORE_KINDS)("sign-in limits in the $name store", (kind) => {
  let a: Store;
  let b: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const created = await kind.create();
    a = created.store;
    b = await openStore(created.url);
    drop = async () => {
      await b.close();
      await created.drop();
    };
  });
  afterAll(async () => drop?.());
  const { account, address } = SIGN_IN_LIMITS;

  it("an account's attempts count on every process: its burst over two connections, then refused", async () => {
    const now = () => 10_000_000;
    const takes = [];
    for (let i = 0; i < account.burst + 2; i++) takes.push(await takeSignIn(i % 2 ? a.prisma : b.prisma, "Who@Lab.org", null, now));
    expect(takes.filter((d) => d.ok)).toHaveLength(account.burst);
    expect(takes.at(-1)).toEqual({ ok: false, by: "account", retryAfterSeconds: 60 / account.ratePerMin });
    // the same email in other case is the same account; another account is not limited
    expect(await takeSignIn(a.prisma, "who@lab.org", null, now)).toMatchObject({ ok: false, by: "account" });
    expect(await takeSignIn(a.prisma, "other@lab.org", null, now)).toEqual({ ok: true });
  });

  it("one address trying many accounts is refused once its budget is spent, and spends no account's budget then", async () => {
    const now = () => 20_000_000;
    for (let i = 0; i < address.burst; i++)
      expect((await takeSignIn(i % 2 ? a.prisma : b.prisma, `u${i}@lab.org`, "203.0.113.7", now)).ok).toBe(true);
    expect(await takeSignIn(a.prisma, "victim@lab.org", "203.0.113.7", now)).toMatchObject({ ok: false, by: "address" });
    // another address (or no address: no trusted proxy) still reaches the account, with its whole budget
    for (let i = 0; i < account.burst; i++) expect((await takeSignIn(b.prisma, "victim@lab.org", "198.51.100.2", now)).ok).toBe(true);
    expect(await takeSignIn(b.prisma, "victim@lab.org", null, now)).toMatchObject({ ok: false, by: "account" });
  });

  it("buckets that have refilled completely are pruned", async () => {
    const t0 = 30_000_000;
    await takeFromBucket(a.prisma, "login:acct:old@lab.org", { ...account, now: () => t0 });
    await takeFromBucket(a.prisma, "token:keep", { ...account, now: () => t0 });
    const later = t0 + (account.burst / account.ratePerMin) * 60_000 + 1;
    expect(await pruneFullBuckets(b.prisma, "login:acct:", { ...account, now: () => later })).toBeGreaterThanOrEqual(1);
    const keys = (await a.prisma.rateBucket.findMany({ select: { key: true } })).map((r) => r.key);
    expect(keys).not.toContain("login:acct:old@lab.org");
    expect(keys).toContain("token:keep");
  });
});
