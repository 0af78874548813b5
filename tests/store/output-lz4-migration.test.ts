import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Store } from "../../lib/db";
import { exportRun } from "../../lib/store/export";
import { loadNative } from "../../lib/store/load";
import { upgradedStore } from "../helpers/old-store";
import { STORE_KINDS, storedRuns } from "../helpers/stores";

vi.mock("server-only", () => ({}));

// Migration 0020 on PostgreSQL: outputs long enough for TOAST to compress them (a row past
// 2 kB) were pglz before and are lz4 after, for the rows written from then on; the rows of
// the previous version keep pglz, and both read back as written (export unchanged).
const PG = STORE_KINDS.find((k) => k.name === "postgres");

function longOutputFile(dir: string, key: string): string {
  const run = { type: "run", key, model: { name: "Long-Output" }, benchmark: "generic", variant: { name: "long" }, config: { epochs: 1 } };
  const lines = [JSON.stringify(run)];
  for (let i = 0; i < 40; i++) {
    // ~6 kB of varied text per output: compressible, as model outputs are
    const output = Array.from({ length: 120 }, (_, k) => `S${k + 1} = ${(i * 7919 + k * 104729) % 99991} ünd ${k % 13}`).join("\n");
    lines.push(JSON.stringify({ type: "item", id: `long-${i}`, length: 1, input: { i }, reference: [String(i)], output }));
  }
  const file = path.join(dir, `${key}.jsonl`);
  fs.writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

const compression = async (s: Store, key: string) =>
  (
    await s.raw.transaction((tx) =>
      tx.query<{ method: string | null; n: number }>(
        `SELECT pg_column_compression(g."output") AS "method", COUNT(*)::int AS "n"
           FROM "Generation" g JOIN "Run" r ON r."id" = g."runId" WHERE r."key" = $1 GROUP BY 1`,
        [key],
      ),
    )
  ).map((r) => `${r.method}:${r.n}`);

const exported = async (s: Store, key: string) => {
  const out: string[] = [];
  for await (const l of exportRun(s.prisma, key)) out.push(l);
  return out;
};

describe.skipIf(!PG)("migration 0020 (outputs lz4 on PostgreSQL)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-lz4-"));
  let current: Store;
  let upgraded: Store;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ current, upgraded, drop } = await upgradedStore(PG!, { migration: "0020", files: [longOutputFile(dir, "lz4__old")] }));
  }, 120_000);
  afterAll(async () => {
    await drop?.();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("leaves the previous version's rows in pglz and writes new ones in lz4, both read back as written", async () => {
    expect(await compression(current, "lz4__old")).toEqual(["lz4:40"]);
    expect(await compression(upgraded, "lz4__old")).toEqual(["pglz:40"]);
    expect(await exported(upgraded, "lz4__old")).toEqual(await exported(current, "lz4__old"));

    const file = longOutputFile(dir, "lz4__new");
    expect((await loadNative(upgraded, path.basename(file), fs.createReadStream(file))).errors).toEqual([]);
    expect(await compression(upgraded, "lz4__new")).toEqual(["lz4:40"]);
    const lines = await exported(upgraded, "lz4__new");
    const outputs = (text: string[]) => text.filter((l) => l.includes('"item"')).map((l) => (JSON.parse(l) as { output: string }).output);
    expect(outputs(lines)).toEqual(outputs(fs.readFileSync(file, "utf8").trim().split("\n")));
    expect((await storedRuns(upgraded)).map((r) => r.key).sort()).toEqual(["lz4__new", "lz4__old"]);
  });
});
