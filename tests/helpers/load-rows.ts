import { afterAll, beforeAll } from "vitest";
import type { Store } from "../../lib/db";
import type { StoreKind } from "./stores";

// For tests that write the same input two ways (in-thread and threaded, whole batches and
// slices) and expect the same rows.

const TABLES: [string, string][] = [
  ["Item", "id"],
  ["Generation", "id"],
  ["RunLengthStat", `"runId", length`],
  ["RunStepStat", `"runId", step`],
  ["RunSignpost", `"runId", list, position`],
  ["RunStudyStat", `"runId", length`],
];

/** Every row a load writes, table by table, with the Run columns given; SQLite's search index too when asked. */
export async function loadedRows(store: Store, runColumns: string, { search = false } = {}): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [table, order] of TABLES) out[table] = await store.prisma.$queryRawUnsafe(`SELECT * FROM "${table}" ORDER BY ${order}`);
  if (search && store.provider === "sqlite")
    out.SearchPosting = await store.prisma.$queryRawUnsafe(`SELECT * FROM "SearchPosting" ORDER BY "runId", "trigram", "block"`);
  out.Run = await store.prisma.$queryRawUnsafe(`SELECT ${runColumns} FROM "Run" ORDER BY key`);
  return out;
}

/** Two fresh stores of one kind for the enclosing describe block, dropped after it. */
export function twoStores(kind: StoreKind): { a: Store; b: Store } {
  const pair = {} as { a: Store; b: Store };
  const made: Awaited<ReturnType<StoreKind["create"]>>[] = [];
  beforeAll(async () => {
    made.push(await kind.create(), await kind.create());
    [pair.a, pair.b] = made.map((m) => m.store);
  });
  afterAll(async () => {
    for (const m of made) await m.drop();
  });
  return pair;
}
