import { getStore, type Store } from "../db";
import type { Gate } from "../auth/request";
import type { Principal } from "../auth/policy";
import { errorResponse } from "./errors";

export type GatedStore = { ok: true; store: Store; principal: Principal } | { ok: false; response: Response };

/**
 * The opening of every guarded route handler: the store (503 while it is unreachable), then the
 * access check on it (401/403/429 as JSON). Route handlers call it before touching the body.
 */
export async function gatedStore(check: (store: Store) => Promise<Gate>, req?: Request): Promise<GatedStore> {
  let store: Store;
  try {
    store = await getStore();
  } catch (e) {
    if (req) await drainSmallBody(req);
    return { ok: false, response: errorResponse(e, req) };
  }
  const gate = await check(store);
  if (!gate.ok && req) await drainSmallBody(req);
  return gate.ok ? { ok: true, store, principal: gate.principal } : gate;
}

/** Bodies up to this size are read before a refusal (larger ones are refused unread). */
const DRAIN_MAX = 1 << 20;

/**
 * A refusal sent while the client is still writing its body can reach it as a connection
 * reset instead of the status (seen in CI under load: ECONNRESET for a 403 on a 2 kB upload).
 * A small declared body is read and dropped first; a large one is not worth reading.
 */
async function drainSmallBody(req: Request): Promise<void> {
  const declared = Number(req.headers.get("content-length"));
  if (!req.body || req.bodyUsed || !Number.isFinite(declared) || declared > DRAIN_MAX) return;
  await req.arrayBuffer().catch(() => undefined);
}
