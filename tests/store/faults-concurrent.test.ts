// Two loads of the same run key at the same time: one winner, never a mix. The loads queue on
// a lock (SQLite's write lock; on PostgreSQL the Model/Benchmark/Variant rows both loads
// upsert), so the later one replaces the earlier one whole: last writer wins. When they do
// not queue (PostgreSQL, same key but a different benchmark and model), the second insert of
// the key fails and the loser reports why, having written nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../lib/db";
import { loadNative, type LoadReport } from "../../lib/store/load";
import type { RawTx } from "../../lib/store/raw";
import { classify, orphanCounts, runSnapshot, seeded, sleep, stepwise, writeRun, type RunSnapshot, NO_ORPHANS } from "../helpers/faults";
import { STORE_KINDS } from "../helpers/stores";

const KEY = "faults__race";

describe.each(STORE_KINDS)("concurrent loads of one run key on $name", (kind) => {
  let store: Store;
  let other: Store; // a second handle: another process's connection, as far as the store knows
  let url: string;
  let drop: () => Promise<void>;
  let dir: string;
  const files: Record<string, string> = {};
  const refs: Record<string, RunSnapshot> = {};

  beforeAll(async () => {
    ({ store, url, drop } = await kind.create());
    other = await openStore(url);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-faults-race-"));
    files.A = path.join(dir, "A.jsonl");
    files.B = path.join(dir, "B.jsonl");
    files.D = path.join(dir, "D.jsonl"); // same key, another benchmark and model
    writeRun(files.A, { runKey: KEY, lengths: [5, 25, 45], itemsPerLength: 100, seed: 11 });
    writeRun(files.B, { runKey: KEY, lengths: [5, 25, 45, 65], itemsPerLength: 150, seed: 12 });
    writeRun(files.D, {
      runKey: KEY,
      benchmark: "dict-sum",
      model: "fault-model-2",
      variantName: "fault-dict",
      lengths: [10, 40],
      itemsPerLength: 150,
      seed: 13,
      simulateP: 0.98,
    });
    for (const name of ["D", "B", "A"]) {
      expect((await load(store, name)).errors).toEqual([]);
      refs[name] = await runSnapshot(store, KEY);
    }
  });
  afterAll(async () => {
    await other?.close();
    await drop?.();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const load = (s: Store, name: string) => loadNative(s, `${name}.jsonl`, fs.createReadStream(files[name]));

  /**
   * Starts two loads `stagger` ms apart on two handles; returns reports in finishing order and
   * the names of the loads whose transaction committed, in commit order. The two differ on
   * PostgreSQL, where a load refreshes the planner's statistics after its commit.
   */
  async function race(first: string, second: string, stagger: number) {
    const finished: { name: string; report: LoadReport }[] = [];
    const committed: string[] = [];
    const go = async (s: Store, name: string, wait: number) => {
      const transaction = s.raw.transaction;
      const run: typeof transaction = transaction.bind(s.raw);
      s.raw.transaction = async <T>(fn: (tx: RawTx) => Promise<T>): Promise<T> => {
        const result = await run(fn);
        committed.push(name);
        return result;
      };
      try {
        await sleep(wait);
        finished.push({ name, report: await load(s, name) });
      } finally {
        s.raw.transaction = transaction;
      }
    };
    await Promise.all([go(store, first, 0), go(other, second, stagger)]);
    return Object.assign(finished, { committed });
  }

  it("same benchmark: both succeed, the later commit wins whole (6 rounds)", async () => {
    const rng = seeded(77);
    for (let round = 0; round < 6; round++) {
      const [first, second] = round % 2 ? ["A", "B"] : ["B", "A"];
      const finished = await race(first, second, Math.round(rng() * 60));
      for (const f of finished) expect(f.report.errors, f.name).toEqual([]);
      const result = classify(await runSnapshot(store, KEY), refs);
      expect(finished.committed, `round ${round}`).toHaveLength(2);
      expect(result, `round ${round}`).toBe(finished.committed[1]); // last writer wins
      expect(await orphanCounts(store)).toEqual(NO_ORPHANS);
    }
  });

  it("same key, another benchmark and model: one winner, the loser says why (6 rounds)", async () => {
    const rng = seeded(78);
    const outcomes: string[] = [];
    for (let round = 0; round < 6; round++) {
      const [first, second] = round % 2 ? ["A", "D"] : ["D", "A"];
      const finished = await race(first, second, Math.round(rng() * 60));
      const ok = finished.filter((f) => f.report.ok);
      const lost = finished.filter((f) => !f.report.ok);
      for (const f of lost) {
        expect(f.report.errors).toEqual([
          {
            file: `${f.name}.jsonl`,
            line: 0,
            field: "key",
            message: `run key '${KEY}' was being loaded concurrently by another load; nothing from this file was loaded; retry`,
          },
        ]);
        expect(f.report.runs).toEqual([]);
      }
      expect(ok.length).toBeGreaterThanOrEqual(1);
      const result = classify(await runSnapshot(store, KEY), refs);
      expect([...finished.committed].sort(), `round ${round}`).toEqual(ok.map((f) => f.name).sort());
      expect(result, `round ${round}`).toBe(finished.committed.at(-1));
      outcomes.push(lost.length ? `${result} won, ${lost[0].name} refused` : `${result} last`);
      expect(await orphanCounts(store)).toEqual(NO_ORPHANS);
    }
    if (store.provider === "sqlite") expect(outcomes.every((o) => o.endsWith("last"))).toBe(true); // one writer at a time
    console.log(`faults-concurrent ${kind.name}: ${outcomes.join("; ")}`);
  });

  it("two multi-run files with the same keys in opposite orders: each key from one file, the same file for both", async () => {
    // X = arith K1 then dict K2; Y = dict K2 then arith K1. On PostgreSQL each load holds its
    // first benchmark's row while it wants the other's: a deadlock, one load is refused.
    const parts = (file: string) => fs.readFileSync(file, "utf8").trimEnd();
    const K1 = { A: files.A, B: files.B };
    files.X = path.join(dir, "X.jsonl");
    files.Y = path.join(dir, "Y.jsonl");
    const dictY = path.join(dir, "dictY.jsonl");
    writeRun(dictY, {
      runKey: "faults__race2",
      benchmark: "dict-sum",
      model: "fault-model-2",
      variantName: "fault-dict",
      lengths: [10, 40],
      itemsPerLength: 100,
      seed: 14,
      simulateP: 0.98,
    });
    const dictX = path.join(dir, "dictX.jsonl");
    writeRun(dictX, {
      runKey: "faults__race2",
      benchmark: "dict-sum",
      model: "fault-model-2",
      variantName: "fault-dict",
      lengths: [10, 40],
      itemsPerLength: 120,
      seed: 15,
      simulateP: 0.98,
    });
    fs.writeFileSync(files.X, parts(K1.A) + "\n" + parts(dictX) + "\n");
    fs.writeFileSync(files.Y, parts(dictY) + "\n" + parts(K1.B) + "\n");
    const second: Record<string, RunSnapshot> = {};
    for (const name of ["X", "Y"]) {
      expect((await load(store, name)).errors).toEqual([]);
      second[name] = await runSnapshot(store, "faults__race2");
    }
    const byFile = { X: { k1: refs.A, k2: second.X }, Y: { k1: refs.B, k2: second.Y } };
    const outcomes: string[] = [];
    for (let round = 0; round < 3; round++) {
      const finished = await race(round % 2 ? "X" : "Y", round % 2 ? "Y" : "X", 0);
      const ok = finished.filter((f) => f.report.ok);
      for (const f of finished.filter((f) => !f.report.ok)) {
        expect(f.report.errors).toHaveLength(1);
        expect(f.report.errors[0].message).toMatch(
          /^run key 'faults__race2?' was being loaded concurrently by another load; nothing from this file was loaded; retry$/,
        );
      }
      expect(ok.length).toBeGreaterThanOrEqual(1);
      expect([...finished.committed].sort(), `round ${round}`).toEqual(ok.map((f) => f.name).sort());
      const winner = finished.committed.at(-1) as "X" | "Y";
      expect(await runSnapshot(store, KEY), `round ${round}`).toEqual(byFile[winner].k1);
      expect(await runSnapshot(store, "faults__race2"), `round ${round}`).toEqual(byFile[winner].k2);
      outcomes.push(ok.length === 2 ? `${winner} last` : `${winner} won`);
      expect(await orphanCounts(store)).toEqual(NO_ORPHANS);
    }
    console.log(`faults-concurrent opposite orders ${kind.name}: ${outcomes.join("; ")}`);
  });

  it(
    "two `stepwise ingest` processes at once: both exit 0, one file wins whole (on SQLite the one that finished last)",
    { timeout: 120_000 },
    async () => {
      for (const [first, second] of [
        ["A", "B"],
        ["B", "A"],
      ]) {
        const finished: string[] = [];
        const a = stepwise(url, ["ingest", files[first]]);
        const b = stepwise(url, ["ingest", files[second]]);
        const results = await Promise.all(
          [
            [first, a],
            [second, b],
          ].map(async ([name, c]) => {
            const r = await (c as typeof a).done;
            finished.push(name as string);
            return r;
          }),
        );
        for (const r of results) expect(r.code, r.out).toBe(0);
        const stored = classify(await runSnapshot(store, KEY), refs);
        // SQLite commits as a load's last step, so the process that exits last committed last. On
        // PostgreSQL a load runs VACUUM and ANALYZE after its commit, so the later commit may exit
        // first: there the run must be one file whole, whichever.
        if (kind.name === "sqlite") expect(stored).toBe(finished[1]);
        else expect(["A", "B"]).toContain(stored);
        expect(await orphanCounts(store)).toEqual(NO_ORPHANS);
      }
    },
  );
});
