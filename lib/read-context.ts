import { LOCAL_ADMIN, visibleRunKeys, type AccessMode, type Principal } from "./auth/policy";
import type { Store } from "./db";
import type { RunWhereInput } from "./generated/sqlite/models/Run";
import { dialectOf, type Dialect } from "./store/dialect";
import { join, raw, sql, type Sql } from "./store/sql";

// What every read needs, built once per request: the store, its SQL dialect, who is asking and
// under which access mode. Pages get it from lib/auth/server.ts (cached per request), route
// handlers from lib/auth/request.ts (from the request itself), the CLI as the local admin, tests
// directly. Reads of one run also need a RunAccess (lib/auth/run-access.ts), which only the
// access check hands out; listing reads show only what `principal` may see.
export interface ReadContext {
  readonly store: Store;
  readonly dialect: Dialect;
  readonly principal: Principal;
  readonly mode: AccessMode;
}

export function readContextOf(store: Store, principal: Principal, mode: AccessMode): ReadContext {
  return Object.freeze({ store, dialect: dialectOf(store.provider), principal, mode });
}

/** The command line's context: it runs on the server, where the store is open to it anyway. */
export function localAdminContext(store: Store): ReadContext {
  return readContextOf(store, LOCAL_ADMIN, "private");
}

/** The Run rows a listing may show `ctx`'s principal (a `where` to AND with the listing's own). */
export function visibleRunsWhere(ctx: ReadContext): RunWhereInput {
  const keys = visibleRunKeys(ctx.principal, ctx.mode);
  return keys === null ? {} : { key: { in: keys } };
}

/** The same in SQL, over the Run table as `r`: a condition to AND with the listing's own. */
export function visibleRunsSql(ctx: ReadContext): Sql {
  const keys = visibleRunKeys(ctx.principal, ctx.mode);
  if (keys === null) return raw("1 = 1");
  return keys.length === 0 ? raw("1 = 0") : sql`r."key" IN (${join(keys)})`;
}
