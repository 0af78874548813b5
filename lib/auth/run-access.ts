import type { ReadContext } from "../read-context";
import { sql } from "../store/sql";
import { canReadRun, type Principal } from "./policy";

// Proof that the access check passed for one run. Reads scoped to a run (its summary, items,
// generations, exports, metrics, comparisons) take a RunAccess, and only RunAccess.check makes
// one: the constructor is private and the #brand field makes the type nominal, so an object
// literal of the same shape does not type-check (tests/types/run-access.ts). A page or route
// handler therefore cannot start a run's read before its own check has passed.

/** Why a run is refused: ask the visitor to sign in, or say nothing (404). */
export type RunRefusal = "sign-in" | "not-found";

export type RunAccessResult = { ok: true; run: RunAccess } | { ok: false; refusal: RunRefusal };

export class RunAccess {
  readonly #brand = "RunAccess";

  private constructor(
    readonly id: number,
    readonly key: string,
    readonly status: string,
    readonly loadedAt: Date,
  ) {}

  /**
   * The access check of one run, then its row. The check comes first and does not depend on
   * the store: a refused visitor gets the same answer whether the run exists or not. A share-link
   * holder asking for another run gets "not-found" (a 404 that says nothing about it); anyone
   * else who may not read gets "sign-in".
   */
  static async check(ctx: ReadContext, key: string): Promise<RunAccessResult> {
    if (!canReadRun(ctx.principal, ctx.mode, key)) return { ok: false, refusal: refusalFor(ctx.principal) };
    const [r] = await ctx.store.read<{ id: unknown; status: unknown; loadedAt: unknown }>(
      sql`SELECT "id", "status", "loadedAt" FROM "Run" WHERE "key" = ${key}`,
      { planOnce: true },
    );
    if (!r) return { ok: false, refusal: "not-found" };
    // loadedAt: ISO text or epoch ms on SQLite (as Prisma writes it), a timestamp on PostgreSQL
    return { ok: true, run: new RunAccess(Number(r.id), key, String(r.status), new Date(r.loadedAt as string | number | Date)) };
  }

  /** Brand check for values that crossed an untyped boundary. */
  static is(v: unknown): v is RunAccess {
    return typeof v === "object" && v !== null && #brand in v;
  }
}

function refusalFor(p: Principal): RunRefusal {
  return p.kind === "anonymous" && p.shares.length > 0 ? "not-found" : "sign-in";
}
