// Loads replacing a run while 20 clients read it: every observation equals the old or the new
// version, never a mix and never "no such run" (the replace deletes and re-inserts inside one
// transaction, so readers keep seeing the old rows until the commit: SQLite WAL, PostgreSQL
// MVCC). Readers use a second store handle, as the server would next to `stepwise ingest`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../lib/db";
import { loadNative } from "../../lib/store/load";
import { classify, orphanCounts, runSnapshot, writeRun, type RunSnapshot, NO_ORPHANS } from "../helpers/faults";
import { STORE_KINDS, storedMetrics, storedRuns } from "../helpers/stores";

const KEY = "faults__readers";
const CLIENTS = 20;
const LOADS = 6;

describe.each(STORE_KINDS)("20 readers during loads on $name", (kind) => {
  let store: Store;
  let reader: Store;
  let drop: () => Promise<void>;
  let dir: string;
  const files: Record<string, string> = {};
  const refs: Record<string, RunSnapshot> = {};

  const load = async (name: string) => {
    const r = await loadNative(store, `${name}.jsonl`, fs.createReadStream(files[name]));
    expect(r.errors).toEqual([]);
  };

  beforeAll(async () => {
    let url: string;
    ({ store, url, drop } = await kind.create());
    reader = await openStore(url);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-faults-readers-"));
    files.A = path.join(dir, "A.jsonl");
    files.B = path.join(dir, "B.jsonl");
    writeRun(files.A, { runKey: KEY, lengths: [5, 25, 45], itemsPerLength: 80, seed: 21 });
    writeRun(files.B, { runKey: KEY, lengths: [5, 25, 45, 65], itemsPerLength: 120, seed: 22 });
    await load("B");
    refs.B = await runSnapshot(store, KEY);
    await load("A");
    refs.A = await runSnapshot(store, KEY);
  });
  afterAll(async () => {
    await reader?.close();
    await drop?.();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`${LOADS} replacing loads, ${CLIENTS} concurrent readers: every read is A or B`, { timeout: 180_000 }, async () => {
    const metricsOf = { A: JSON.parse(refs.A.metrics!), B: JSON.parse(refs.B.metrics!) };
    const seen = { A: 0, B: 0, bad: [] as string[] };
    let loading = true;
    const client = async (id: number) => {
      let reads = 0;
      while (loading) {
        // Alternate the test's one-statement snapshot with the API's own metrics read.
        if ((reads + id) % 2 === 0) {
          const s = await runSnapshot(reader, KEY);
          const c = classify(s, refs);
          if (c === "A" || c === "B") seen[c]++;
          else seen.bad.push(`client ${id}: ${JSON.stringify({ ...s, metrics: s.metrics?.slice(0, 60) })}`);
        } else {
          const m = await storedMetrics(reader, KEY);
          const c =
            JSON.stringify(m) === JSON.stringify(metricsOf.A) ? "A" : JSON.stringify(m) === JSON.stringify(metricsOf.B) ? "B" : null;
          if (c) seen[c]++;
          else seen.bad.push(`client ${id}: metrics ${JSON.stringify(m)?.slice(0, 80)}`);
          const listed = (await storedRuns(reader)).find((r) => r.key === KEY);
          if (!listed || (listed.generations !== refs.A.generations && listed.generations !== refs.B.generations)) {
            seen.bad.push(`client ${id}: listed ${JSON.stringify(listed)}`);
          }
        }
        reads++;
        await new Promise((r) => setImmediate(r));
      }
      return reads;
    };
    const clients = Array.from({ length: CLIENTS }, (_, i) => client(i));
    const loader = (async () => {
      try {
        for (let i = 0; i < LOADS; i++) await load(i % 2 === 0 ? "B" : "A");
      } finally {
        loading = false;
      }
    })();
    await loader;
    const reads = await Promise.all(clients);
    console.log(
      `faults-readers ${kind.name}: ${reads.reduce((a, b) => a + b, 0)} reads (min per client ${Math.min(...reads)}), A ${seen.A}, B ${seen.B}, bad ${seen.bad.length}`,
    );
    expect(seen.bad.slice(0, 5)).toEqual([]);
    expect(Math.min(...reads)).toBeGreaterThanOrEqual(3); // every client really read during the loads
    expect(seen.A).toBeGreaterThan(0);
    expect(seen.B).toBeGreaterThan(0);
    expect(classify(await runSnapshot(reader, KEY), refs)).toBe("A"); // the last load was A
    expect(await orphanCounts(store)).toEqual(NO_ORPHANS);
  });
});
