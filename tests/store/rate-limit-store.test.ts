// The write API's rate limit lives in the store: two server processes (here two connections to
// one store) draw from one budget, concurrent takes never spend more than it, it refills with
// time, and a lagging clock never takes tokens away.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeWrite } from "../../lib/api/rate-limit";
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
