// A bulk transaction (a load's) commits without checkpointing its WAL on the writing thread; the
// checkpoint runs after it on a thread of its own (lib/store/checkpoint-thread.ts). Other
// transactions keep SQLite's own checkpoint at their COMMIT.
import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkpointOffThread } from "../../lib/store/checkpoint-thread";
import { openRaw, type RawDb } from "../../lib/store/raw";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-checkpoint-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
// 1,100 rows of 16 kB: past SQLite's 1,000-page threshold of 16 kB pages
const ROWS = 1100;

async function storeWithTable(name: string): Promise<{ raw: RawDb; file: string }> {
  const file = path.join(dir, `${name}.db`);
  const raw = await openRaw(`file:${file}`);
  await raw.transaction((tx) => tx.script(`CREATE TABLE "Blob" ("id" INTEGER PRIMARY KEY, "body" BLOB)`));
  return { raw, file };
}

const fill = (raw: RawDb, rows: number, bulk: boolean) =>
  raw.transaction(
    (tx) =>
      tx.insertRows(
        "Blob",
        ["body"],
        Array.from({ length: rows }, (_, i) => [Buffer.alloc(16_000, i)]),
      ),
    { bulk },
  );

describe("a bulk transaction's checkpoint", () => {
  it("runs after the commit on another thread, and the rows are readable before it", async () => {
    const { raw, file } = await storeWithTable("bulk");
    await fill(raw, ROWS, true);
    // committed: another connection reads every row, while the store's file holds none of them yet
    const reader = new Database(file, { readonly: true });
    expect(reader.prepare(`SELECT COUNT(*) AS n FROM "Blob"`).get()).toEqual({ n: ROWS });
    reader.close();
    expect(fs.statSync(file).size).toBeLessThan(1 << 20);
    const result = await raw.settled();
    expect(result).toMatchObject({ checkpointed: expect.any(Number) });
    const { log, checkpointed } = result as { log: number; checkpointed: number };
    expect(log).toBeGreaterThanOrEqual(1000);
    expect(checkpointed).toBe(log);
    expect(fs.statSync(file).size).toBeGreaterThan(ROWS * 16_000);
    await raw.close();
  });

  it("is SQLite's own at the COMMIT for other transactions, and for a bulk one under the threshold", async () => {
    const { raw, file } = await storeWithTable("plain");
    await fill(raw, 10, true);
    expect(await raw.settled()).toBeNull();
    // the same connection, its threshold back after the bulk COMMIT: this COMMIT checkpoints
    await fill(raw, ROWS, false);
    expect(fs.statSync(file).size).toBeGreaterThan(ROWS * 16_000);
    expect(await raw.settled()).toBeNull();
    await raw.close();
  });

  it("reports a store it cannot open instead of throwing", async () => {
    const result = await checkpointOffThread(path.join(dir, "missing.db"));
    expect(result).toMatchObject({ error: expect.stringMatching(/missing\.db|unable to open|does not exist/i) });
  });
});
