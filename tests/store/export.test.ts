import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { exportRun } from "../../lib/store/export";
import { loadNative } from "../../lib/store/load";
import { EXAMPLES } from "../helpers/fixtures";
import { STORE_KINDS, storedRuns } from "../helpers/stores";

const VALID = ["arith-small.jsonl", "dictsum-small.jsonl", "selfcond-small.jsonl", "generic-small.jsonl"];

async function collect(it: AsyncIterable<string>) {
  const out: string[] = [];
  for await (const l of it) out.push(l);
  return out;
}

describe.each(STORE_KINDS)("export round trip on $name", (kind) => {
  let a: { store: Store; drop(): Promise<void> };
  let b: { store: Store; drop(): Promise<void> };
  beforeAll(async () => {
    a = await kind.create();
    b = await kind.create();
    for (const f of VALID) expect((await loadNative(a.store, f, fs.createReadStream(path.join(EXAMPLES, f)))).errors).toEqual([]);
  });
  afterAll(async () => {
    await a?.drop();
    await b?.drop();
  });

  it("writes every run as native JSONL that loads into an empty store with identical metrics", async () => {
    const runs = await storedRuns(a.store);
    expect(runs.length).toBe(8);
    for (const run of runs) {
      const lines = await collect(exportRun(a.store.prisma, run.key));
      const report = await loadNative(b.store, `${run.key}.jsonl`, [lines.join("\n") + "\n"]);
      expect(report.errors, run.key).toEqual([]);
      const [m1, m2] = await Promise.all(
        [a, b].map(async (s) => (await s.store.prisma.run.findUniqueOrThrow({ where: { key: run.key } })).metrics),
      );
      expect(JSON.parse(m2), run.key).toEqual(JSON.parse(m1));
    }
    expect(await storedRuns(b.store)).toEqual(await storedRuns(a.store));
  });
});
