import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createShareLink } from "../../lib/auth/share-links";
import type { Store } from "../../lib/db";
import { generateRun } from "../../lib/generate/dataset";
import { DEMO_CREATED_AT, demoRunOptions } from "../../lib/generate/demo";
import { tryAnalyseItem } from "../../lib/analysis/analyse";
import { RunGoneError, deleteRun, holdRun } from "../../lib/store/delete-run";
import { addGeneration, openIncrementalRun } from "../../lib/store/incremental";
import { loadNative } from "../../lib/store/load";
import { listMigrations } from "../../lib/store/migrate";
import { NO_ORPHANS, orphanCounts, runSnapshot, stepwise } from "../helpers/faults";
import { EXAMPLES } from "../helpers/fixtures";
import { STORE_KINDS } from "../helpers/stores";
import { searchIndexExact } from "../helpers/search-index";

// Deleting a run (lib/store/delete-run.ts, `stepwise delete`) and the demo flag (migration
// 0012, `stepwise demo`), on both stores.

const loadExample = (store: Store, name: string) => loadNative(store, name, fs.createReadStream(path.join(EXAMPLES, name)));

/** The JSONL text of one generated run. */
function runText(opts: Parameters<typeof generateRun>[0]): string {
  const { header, items } = generateRun(opts);
  return [JSON.stringify(header), ...[...items()].map((i) => JSON.stringify(i))].join("\n") + "\n";
}

describe.each(STORE_KINDS)("deleting a run on $name", (kind) => {
  let store: Store;
  let url: string;
  let drop: () => Promise<void>;
  const keys = { arith: "", dictsum: "" };
  beforeAll(async () => {
    ({ store, url, drop } = await kind.create());
    for (const f of ["arith-small.jsonl", "dictsum-small.jsonl"]) expect((await loadExample(store, f)).errors).toEqual([]);
    const runs = await store.prisma.run.findMany({ select: { key: true, benchmark: true } });
    keys.arith = runs.find((r) => r.benchmark === "procedural-arith")!.key;
    keys.dictsum = runs.find((r) => r.benchmark === "dict-sum")!.key;
  });
  afterAll(async () => drop?.());

  it("refuses an unknown key and changes nothing", async () => {
    const before = [await runSnapshot(store, keys.arith), await store.prisma.run.count(), await searchIndexExact(store)];
    expect(await deleteRun(store.raw, "no-such-run")).toBeNull();
    expect([await runSnapshot(store, keys.arith), await store.prisma.run.count(), await searchIndexExact(store)]).toEqual(before);
  });

  it("rolls back completely when the delete fails part-way", async () => {
    await createShareLink(store.prisma, { runKey: keys.arith, createdById: null, expiresAt: null });
    const before = [await runSnapshot(store, keys.arith), await store.prisma.shareLink.count(), await searchIndexExact(store)];
    // The Run row refuses to go, after the search index and share links were already touched.
    if (store.provider === "sqlite")
      await store.raw.transaction((tx) =>
        tx.script(`CREATE TRIGGER "refuse_run_delete" BEFORE DELETE ON "Run" BEGIN SELECT RAISE(ABORT, 'refused by test'); END;`),
      );
    else
      await store.raw.transaction((tx) =>
        tx.script(`CREATE FUNCTION refuse_run_delete() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by test'; END $$ LANGUAGE plpgsql;
                   CREATE TRIGGER "refuse_run_delete" BEFORE DELETE ON "Run" FOR EACH ROW EXECUTE FUNCTION refuse_run_delete();`),
      );
    try {
      await expect(deleteRun(store.raw, keys.arith)).rejects.toThrow(/refused by test/);
    } finally {
      await store.raw.transaction((tx) =>
        tx.script(`DROP TRIGGER "refuse_run_delete"${store.provider === "postgres" ? ` ON "Run"` : ""};`),
      );
    }
    expect([await runSnapshot(store, keys.arith), await store.prisma.shareLink.count(), await searchIndexExact(store)]).toEqual(before);
  });

  it("deletes the run and everything of it, and nothing else", async () => {
    const other = await runSnapshot(store, keys.dictsum);
    const target = await runSnapshot(store, keys.arith);
    expect(target.generations).toBeGreaterThan(0);
    expect(target.steps).toBeGreaterThan(0);
    expect(target.signposts).toBeGreaterThan(0);
    expect(target.studyStats).toBeGreaterThan(0);
    const deleted = await deleteRun(store.raw, keys.arith);
    expect(deleted).toEqual({ key: keys.arith, items: target.items, generations: target.generations, shareLinks: 1 });
    expect((await runSnapshot(store, keys.arith)).metrics).toBeNull();
    expect(await runSnapshot(store, keys.dictsum)).toEqual(other);
    expect(await store.prisma.shareLink.count({ where: { runKey: keys.arith } })).toBe(0);
    expect(await orphanCounts(store)).toEqual(NO_ORPHANS);
    // SQLite's search index holds exactly the remaining runs' outputs (a left-over row fails the check).
    expect(await searchIndexExact(store)).toBe(true);
    // The key is free again: loading it anew works.
    expect((await loadExample(store, "arith-small.jsonl")).errors).toEqual([]);
    expect(await runSnapshot(store, keys.arith)).toEqual(target);
  });

  it("deletes the same in slices on the server's store, and rolls those back too when it fails", async () => {
    const other = await runSnapshot(store, keys.dictsum);
    const target = await runSnapshot(store, keys.arith);
    const index = await searchIndexExact(store);
    const refuse =
      store.provider === "sqlite"
        ? `CREATE TRIGGER "refuse_run_delete" BEFORE DELETE ON "Run" BEGIN SELECT RAISE(ABORT, 'refused by test'); END;`
        : `CREATE FUNCTION refuse_sliced() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by test'; END $$ LANGUAGE plpgsql;
           CREATE TRIGGER "refuse_run_delete" BEFORE DELETE ON "Run" FOR EACH ROW EXECUTE FUNCTION refuse_sliced();`;
    await store.raw.transaction((tx) => tx.script(refuse));
    try {
      await expect(deleteRun(store.raw, keys.arith, { sharesEventLoop: true })).rejects.toThrow(/refused by test/);
    } finally {
      await store.raw.transaction((tx) =>
        tx.script(`DROP TRIGGER "refuse_run_delete"${store.provider === "postgres" ? ` ON "Run"` : ""};`),
      );
    }
    expect([await runSnapshot(store, keys.arith), await searchIndexExact(store)]).toEqual([target, index]);
    const deleted = await deleteRun(store.raw, keys.arith, { sharesEventLoop: true });
    expect(deleted).toEqual({ key: keys.arith, items: target.items, generations: target.generations, shareLinks: 0 });
    expect((await runSnapshot(store, keys.arith)).metrics).toBeNull();
    expect(await runSnapshot(store, keys.dictsum)).toEqual(other);
    expect(await orphanCounts(store)).toEqual(NO_ORPHANS);
    expect(await searchIndexExact(store)).toBe(true);
    expect((await loadExample(store, "arith-small.jsonl")).errors).toEqual([]);
    expect(await runSnapshot(store, keys.arith)).toEqual(target);
  });

  it("`stepwise delete` refuses unknown keys with exit 1 and deletes a known one", async () => {
    const unknown = await stepwise(url, ["delete", "--run", "no-such-run"]).done;
    expect(unknown.code).toBe(1);
    expect(unknown.out).toMatch(/no run with key 'no-such-run'; nothing deleted/);
    const missing = await stepwise(url, ["delete"]).done;
    expect(missing.code).toBe(2);
    expect(missing.out).toMatch(/--run KEY is required/);
    const ok = await stepwise(url, ["delete", "--run", keys.dictsum]).done;
    expect(ok.out).toMatch(new RegExp(`deleted run ${keys.dictsum}: \\d+ items, \\d+ generations`));
    expect(ok.code).toBe(0);
    expect(await store.prisma.run.count({ where: { key: keys.dictsum } })).toBe(0);
  }, 120_000);
});

describe.each(STORE_KINDS)("demo runs on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  const demo = demoRunOptions()[0];
  beforeAll(async () => ({ store, drop } = await kind.create()));
  afterAll(async () => drop?.());

  it("are marked when loaded as demo, and only then", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-demo-flag-"));
    try {
      const file = path.join(dir, "demo.jsonl");
      fs.writeFileSync(file, runText(demo));
      expect((await loadNative(store, file, fs.createReadStream(file), { demo: true })).errors).toEqual([]);
      expect((await loadExample(store, "arith-small.jsonl")).errors).toEqual([]);
      const runs = await store.prisma.run.findMany({ select: { key: true, demo: true }, orderBy: { key: "asc" } });
      expect(runs.filter((r) => r.demo).map((r) => r.key)).toEqual([demo.runKey]);
      expect(runs.filter((r) => !r.demo).length).toBeGreaterThan(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stored before 0012 are backfilled by its rule", async () => {
    // A demo run, a real run keyed like one but not simulated, and a simulated run under another key.
    const lookalikes = [
      { ...demo, runKey: "real__x__demo", simulate: undefined, model: "Real", createdAt: DEMO_CREATED_AT },
      { ...demo, runKey: demo.runKey!.replace(/__demo$/, "__mine") },
    ];
    for (const [i, opts] of lookalikes.entries())
      expect((await loadNative(store, `l${i}.jsonl`, [runText(opts as Parameters<typeof generateRun>[0])])).errors).toEqual([]);
    await store.prisma.run.updateMany({ data: { demo: false } });
    const sql = listMigrations(store.provider).find((m) => m.name.startsWith("0012_"))!.sql;
    await store.raw.transaction((tx) => tx.script(sql.slice(sql.indexOf('UPDATE "Run"'))));
    const marked = await store.prisma.run.findMany({ where: { demo: true }, select: { key: true } });
    expect(marked.map((r) => r.key)).toEqual([demo.runKey]);
  });
});

// On PostgreSQL a run's items, generations and search-index rows hold no foreign key to it
// (migration 0022): a writer of a run it did not create holds the run's row instead (holdRun),
// and the run's delete trigger takes its rows. Both stores must behave the same.
describe.each(STORE_KINDS)("writing rows of a run that is being deleted, on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  const generated = generateRun({ benchmark: "procedural-arith", lengths: [5, 15], itemsPerLength: 3, seed: 3, simulateP: 0.9 });
  const analysed = [...generated.items()].map((line) => {
    const item = { ...line, epoch: line.epoch ?? 0, output: line.output ?? null };
    const r = tryAnalyseItem(generated.header, item);
    if (!r.ok) throw new Error("generated item does not analyse");
    return { item, analysis: r.analysis };
  });
  beforeAll(async () => ({ store, drop } = await kind.create()));
  afterAll(async () => drop?.());

  it("refuses a generation for a run deleted meanwhile, and leaves nothing of it", async () => {
    const header = { ...generated.header, key: "gone-before-write" };
    const run = await openIncrementalRun(store, header, analysed.length);
    expect(await addGeneration(store, run, analysed[0].item, analysed[0].analysis)).toBe(true);
    expect(await deleteRun(store.raw, header.key)).not.toBeNull();
    await expect(addGeneration(store, run, analysed[1].item, analysed[1].analysis)).rejects.toThrow(RunGoneError);
    expect(await orphanCounts(store)).toEqual(NO_ORPHANS);
    const left = await store.raw.transaction((tx) =>
      tx.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "SearchPosting" WHERE "runId" = $1`, [run.runId]),
    );
    expect(Number(left[0].n)).toBe(0);
  });

  it.skipIf(kind.name !== "postgres")("makes a delete wait for a writer that holds the run, then deletes what it wrote", async () => {
    const header = { ...generated.header, key: "deleted-while-written" };
    const run = await openIncrementalRun(store, header, analysed.length);
    for (const { item, analysis } of analysed.slice(0, 2)) await addGeneration(store, run, item, analysis);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let held!: () => void;
    const holding = new Promise<void>((r) => (held = r));
    const writer = store.raw.transaction(async (tx) => {
      await holdRun(tx, run.runId);
      await tx.exec(
        `INSERT INTO "Item" ("runId", "key", "length", "contentId") SELECT "runId", 'late', "length", "contentId" FROM "Item" WHERE "runId" = $1 LIMIT 1`,
        [run.runId],
      );
      held();
      await released;
    });
    await holding;
    let deleted = false;
    const deleting = deleteRun(store.raw, header.key).then((d) => ((deleted = true), d));
    await new Promise((r) => setTimeout(r, 300));
    expect(deleted).toBe(false); // waiting for the writer's lock
    release();
    await writer;
    expect(await deleting).not.toBeNull();
    expect(await orphanCounts(store)).toEqual(NO_ORPHANS);
    expect(await store.prisma.item.count({ where: { runId: run.runId } })).toBe(0);
  });
});
