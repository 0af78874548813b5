import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { loadNative } from "../../lib/store/load";
import { parallelNativeSource } from "../../lib/store/parallel-source";
import { EXAMPLES } from "../helpers/shared-data";
import { STORE_KINDS } from "../helpers/stores";

// The analysis thread (lib/store/parallel-source.ts) must be invisible: the same file loaded
// in-thread and on the second thread gives the same report and the same rows.
const FILES = ["arith-small.jsonl", "dictsum-small.jsonl", "selfcond-small.jsonl", "generic-small.jsonl", "invalid.jsonl"];
const TABLES: [string, string][] = [
  ["Item", "id"],
  ["Generation", "id"],
  ["RunLengthStat", `"runId", length`],
  ["RunStepStat", `"runId", step`],
  ["RunSignpost", `"runId", list, position`],
];

/** Odd-sized chunks, so lines and UTF-8 sequences straddle chunk boundaries. */
function* chunks(bytes: Buffer, size = 997) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function dump(store: Store) {
  const out: Record<string, unknown[]> = {};
  for (const [table, order] of TABLES) out[table] = await store.prisma.$queryRawUnsafe(`SELECT * FROM "${table}" ORDER BY ${order}`);
  out.Run = await store.prisma.$queryRawUnsafe(`SELECT key, metrics, extras, "itemCount", "generationCount", h50 FROM "Run" ORDER BY key`);
  return out;
}

describe.each(STORE_KINDS)("loading on the analysis thread on $name", (kind) => {
  let serial: Awaited<ReturnType<typeof kind.create>>;
  let parallel: Awaited<ReturnType<typeof kind.create>>;
  beforeAll(async () => {
    serial = await kind.create();
    parallel = await kind.create();
  });
  afterAll(async () => {
    await serial?.drop();
    await parallel?.drop();
  });

  it("gives the in-thread loader's reports and rows for every example file", async () => {
    for (const name of FILES) {
      const bytes = fs.readFileSync(path.join(EXAMPLES, name));
      const a = await loadNative(serial.store, name, [bytes]);
      const b = await loadNative(parallel.store, name, chunks(bytes), { source: parallelNativeSource });
      expect(b, name).toEqual(a);
      expect(a.ok, name).toBe(name !== "invalid.jsonl");
    }
    expect(await dump(parallel.store)).toEqual(await dump(serial.store));
  }, 60_000);

  it("reports an empty input and a file without run line as the in-thread reader does", async () => {
    for (const text of ["", "\n\n", '{"type":"item"}\n']) {
      const a = await loadNative(serial.store, "x.jsonl", [text]);
      const b = await loadNative(parallel.store, "x.jsonl", [text], { source: parallelNativeSource });
      expect(b).toEqual(a);
      expect(a.ok).toBe(false);
    }
  }, 30_000);
});
