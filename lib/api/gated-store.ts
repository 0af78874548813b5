import { getStore, type Store } from "../db";
import type { Gate } from "../auth/request";
import type { Principal } from "../auth/policy";
import { unavailable } from "./responses";

export type GatedStore = { ok: true; store: Store; principal: Principal } | { ok: false; response: Response };

/**
 * The opening of every guarded route handler: the store (503 while it is unreachable), then the
 * access check on it (401/403/429 as JSON). Route handlers call it before touching the body.
 */
export async function gatedStore(check: (prisma: Store["prisma"]) => Promise<Gate>): Promise<GatedStore> {
  let store: Store;
  try {
    store = await getStore();
  } catch (e) {
    return { ok: false, response: unavailable(e) };
  }
  const gate = await check(store.prisma);
  return gate.ok ? { ok: true, store, principal: gate.principal } : gate;
}
