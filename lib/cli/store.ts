import { openStore, type Store } from "../db";
import { env } from "../env";

/** Opens (and migrates) the store named by DATABASE_URL for one command, then closes it. */
export async function withStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(env.DATABASE_URL);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
