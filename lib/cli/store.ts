import { openRawStore, openStore, type RawStore, type Store } from "../db";
import { env } from "../env";

/** Opens (and migrates) the store named by DATABASE_URL for one command, then closes it. */
export function withStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  return opened(openStore, fn);
}

/** The same without Prisma's client, for commands that only load, delete or migrate (lib/db.ts, RawStore). */
export function withRawStore<T>(fn: (store: RawStore) => Promise<T>): Promise<T> {
  return opened(openRawStore, fn);
}

async function opened<S extends RawStore, T>(open: (url: string) => Promise<S>, fn: (store: S) => Promise<T>): Promise<T> {
  const store = await open(env.DATABASE_URL);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
