// SIGKILL the real `stepwise ingest` at seeded random points of a load that replaces run A
// with run B (same key): afterwards the run must be exactly A or exactly B (metrics JSON, the
// variant row and every row count), with no orphan rows, and an unrelated run untouched.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { loadNative } from "../../lib/store/load";
import {
  classify,
  hasOpen,
  orphanCounts,
  runSnapshot,
  seeded,
  sleep,
  stepwise,
  waitFor,
  writeRun,
  type RunSnapshot,
  NO_ORPHANS,
} from "../helpers/faults";
import { STORE_KINDS } from "../helpers/stores";

const KEY = "faults__kill";
const TRIALS = 20;

describe.each(STORE_KINDS)("SIGKILL during `stepwise ingest` on $name", (kind) => {
  let store: Store;
  let url: string;
  let drop: () => Promise<void>;
  let dir: string;
  let fileA: string;
  let fileB: string;
  const refs: Record<string, RunSnapshot> = {};
  let bystander: RunSnapshot;

  const load = async (file: string) => {
    const r = await loadNative(store, path.basename(file), fs.createReadStream(file));
    expect(r.errors).toEqual([]);
  };

  beforeAll(async () => {
    ({ store, url, drop } = await kind.create());
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-faults-kill-"));
    fileA = path.join(dir, "A.jsonl");
    fileB = path.join(dir, "B.jsonl");
    // A is small (it is reloaded after every trial that ended in B); B is big enough that its
    // load spans a second or more, so kills land in every phase of it.
    writeRun(fileA, { runKey: KEY, lengths: [5, 25, 45], itemsPerLength: 30, seed: 1 });
    writeRun(fileB, { runKey: KEY, lengths: [5, 25, 45, 65, 85], itemsPerLength: 120, seed: 2 });
    const other = path.join(dir, "other.jsonl");
    writeRun(other, { runKey: "faults__bystander", lengths: [5, 15], itemsPerLength: 10, seed: 3, variantName: "other-variant" });
    await load(other);
    bystander = await runSnapshot(store, "faults__bystander");
    // Reference snapshots, computed once up front through the in-process loader.
    await load(fileB);
    refs.B = await runSnapshot(store, KEY);
    await load(fileA);
    refs.A = await runSnapshot(store, KEY);
    expect(refs.A.generations).toBe(90);
    expect(refs.B.generations).toBe(600);
    expect(refs.B.steps).toBe(120 * (5 + 25 + 45 + 65 + 85));
  });
  afterAll(async () => {
    await drop?.();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`${TRIALS} kills at seeded points leave the run fully A or fully B`, { timeout: 300_000 }, async () => {
    // One uninterrupted child load measures the load window (file opened → process exit) and
    // checks that the CLI ends in the same state as the in-process loader.
    let window: number;
    {
      const c = stepwise(url, ["ingest", fileB]);
      await waitFor(() => hasOpen(c.child.pid!, fileB) || c.child.exitCode !== null, 60_000, "the child to open B");
      const t0 = Date.now();
      const r = await c.done;
      window = Date.now() - t0;
      expect(r.code, r.out).toBe(0);
      expect(classify(await runSnapshot(store, KEY), refs)).toBe("B");
    }
    const rng = seeded(20260607);
    const outcomes: { delay: number; openAtKill: boolean; exited: boolean; result: string }[] = [];
    for (let i = 0; i < TRIALS; i++) {
      if (classify(await runSnapshot(store, KEY), refs) !== "A") await load(fileA);
      // Stratified over 0..1.15 × the window: early kills (reading), late ones (metrics,
      // commit), and a few after the commit.
      const delay = Math.round(((i + rng()) / TRIALS) * 1.15 * window);
      const c = stepwise(url, ["ingest", fileB]);
      await waitFor(() => hasOpen(c.child.pid!, fileB) || c.child.exitCode !== null, 60_000, "the child to open B");
      await sleep(delay);
      const openAtKill = hasOpen(c.child.pid!, fileB);
      const killed = c.child.kill("SIGKILL");
      const r = await c.done;
      const exited = r.code !== null;
      const result = classify(await runSnapshot(store, KEY), refs);
      outcomes.push({ delay, openAtKill, exited, result });
      expect(result, `trial ${i}: delay ${delay} ms${exited ? ", child had exited: " + r.out : ""}`).not.toBe("mix");
      if (exited) expect(r.code, r.out).toBe(0);
      if (exited) expect(result).toBe("B"); // it finished: the new version must be complete
      if (openAtKill) expect(result).toBe("A"); // still reading B: nothing may show
      expect(killed || exited).toBe(true);
      expect(await orphanCounts(store)).toEqual(NO_ORPHANS);
      expect(await runSnapshot(store, "faults__bystander")).toEqual(bystander);
    }
    const summary = {
      window,
      A: outcomes.filter((o) => o.result === "A").length,
      B: outcomes.filter((o) => o.result === "B").length,
      killedWhileReading: outcomes.filter((o) => o.openAtKill).length,
      killedAfterReading: outcomes.filter((o) => !o.openAtKill && !o.exited).length,
      exitedBeforeKill: outcomes.filter((o) => o.exited).length,
    };
    console.log(`faults-kill ${kind.name}: ${JSON.stringify(summary)}`);
    // The kills must really have hit loads in progress, not only idle or finished processes.
    expect(summary.killedWhileReading).toBeGreaterThanOrEqual(5);
    if (store.provider === "sqlite") {
      const [row] = await store.prisma.$queryRawUnsafe<{ quick_check: string }[]>("PRAGMA quick_check");
      expect(row.quick_check).toBe("ok");
    }
  });
});
