// Shared pieces of the fault-injection tests (tests/store/faults-*.test.ts): seeded randomness,
// generated run files, and one-statement snapshots of a run so that "fully A or fully B" can
// be checked without the reader itself mixing two versions.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { mulberry32 } from "../../lib/analysis/stats";
import type { Store } from "../../lib/db";
import { generateDataset, type GenerateOptionsInput } from "../../lib/generate/dataset";

// from the module's URL, not __dirname: Playwright loads this module as ESM, which has none
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Seeded randomness (the analysis core's mulberry32), so every trial's timing choice is reproducible. */
export const seeded = mulberry32;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes a simulated procedural-arith run (one run line, then items) to `file`. */
export function writeRun(file: string, opts: Partial<GenerateOptionsInput> & { runKey: string }): void {
  const lines = generateDataset({
    benchmark: "procedural-arith",
    model: "fault-model",
    variantName: "fault-variant",
    simulateP: 0.97,
    ...opts,
  } as GenerateOptionsInput);
  fs.writeFileSync(file, [...lines].join("\n") + "\n");
}

/** Everything a reader can see of one run; `null` fields mean the run does not exist. */
export interface RunSnapshot {
  metrics: string | null;
  variantParams: string | null;
  items: number;
  generations: number;
  steps: number;
  lengthStats: number;
  stepStats: number;
  signposts: number;
  studyStats: number;
}

// One SQL statement, so SQLite (WAL) and PostgreSQL (READ COMMITTED) evaluate every part of
// it against the same committed state: a mix in the result is a mix in the store.
const SNAPSHOT_SQL = `
  SELECT r."metrics" AS metrics, v."params" AS "variantParams",
    (SELECT COUNT(*) FROM "Item" i WHERE i."runId" = r."id") AS items,
    (SELECT COUNT(*) FROM "Generation" g WHERE g."runId" = r."id") AS generations,
    (SELECT COALESCE(SUM(LENGTH(g."statuses")), 0) FROM "Generation" g WHERE g."runId" = r."id") AS steps,
    (SELECT COUNT(*) FROM "RunLengthStat" l WHERE l."runId" = r."id") AS "lengthStats",
    (SELECT COUNT(*) FROM "RunStepStat" t WHERE t."runId" = r."id") AS "stepStats",
    (SELECT COUNT(*) FROM "RunSignpost" p WHERE p."runId" = r."id") AS "signposts",
    (SELECT COUNT(*) FROM "RunStudyStat" s WHERE s."runId" = r."id") AS "studyStats"
  FROM "Run" r JOIN "Variant" v ON v."id" = r."variantId" WHERE r."key" = $1`;

const EMPTY: RunSnapshot = {
  metrics: null,
  variantParams: null,
  items: 0,
  generations: 0,
  steps: 0,
  lengthStats: 0,
  stepStats: 0,
  signposts: 0,
  studyStats: 0,
};

export async function runSnapshot(store: Store, key: string): Promise<RunSnapshot> {
  const sql = store.provider === "sqlite" ? SNAPSHOT_SQL.replace("$1", "?") : SNAPSHOT_SQL;
  const rows = await store.prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql, key);
  if (rows.length === 0) return EMPTY;
  const r = rows[0];
  const n = (k: string) => Number(r[k]);
  return {
    metrics: String(r.metrics),
    variantParams: String(r.variantParams),
    items: n("items"),
    generations: n("generations"),
    steps: n("steps"),
    lengthStats: n("lengthStats"),
    stepStats: n("stepStats"),
    signposts: n("signposts"),
    studyStats: n("studyStats"),
  };
}

/** What orphanCounts answers for a sound store. */
export const NO_ORPHANS = {
  items: 0,
  generations: 0,
  steps: 0,
  lengthStats: 0,
  stepStats: 0,
  signposts: 0,
  studyStats: 0,
  contents: 0,
  itemsWithoutContent: 0,
  runsWithWrongCount: 0,
} as const;

/** Rows whose parent is gone (the schema cascades; a non-zero count means a broken store). */
export async function orphanCounts(store: Store): Promise<Record<string, number>> {
  const rows = await store.prisma.$queryRawUnsafe<Record<string, unknown>[]>(`
    SELECT
      (SELECT COUNT(*) FROM "Item" i WHERE NOT EXISTS (SELECT 1 FROM "Run" r WHERE r."id" = i."runId")) AS items,
      (SELECT COUNT(*) FROM "Generation" g WHERE NOT EXISTS (SELECT 1 FROM "Run" r WHERE r."id" = g."runId")
         OR NOT EXISTS (SELECT 1 FROM "Item" i WHERE i."id" = g."itemId" AND i."runId" = g."runId")) AS generations,
      0 AS steps, -- step traces live in their generation's row: none can be left behind
      (SELECT COUNT(*) FROM "RunLengthStat" l WHERE NOT EXISTS (SELECT 1 FROM "Run" r WHERE r."id" = l."runId")) AS "lengthStats",
      (SELECT COUNT(*) FROM "RunStepStat" t WHERE NOT EXISTS (SELECT 1 FROM "Run" r WHERE r."id" = t."runId")) AS "stepStats",
      (SELECT COUNT(*) FROM "RunSignpost" p WHERE NOT EXISTS (SELECT 1 FROM "Run" r WHERE r."id" = p."runId")) AS "signposts",
      (SELECT COUNT(*) FROM "RunStudyStat" s WHERE NOT EXISTS (SELECT 1 FROM "Run" r WHERE r."id" = s."runId")) AS "studyStats",
      -- item contents are shared by runs: one that no item uses is left behind
      (SELECT COUNT(*) FROM "ItemContent" c WHERE NOT EXISTS (SELECT 1 FROM "Item" i WHERE i."contentId" = c."id")) AS "contents",
      (SELECT COUNT(*) FROM "Item" i WHERE NOT EXISTS (SELECT 1 FROM "ItemContent" c WHERE c."id" = i."contentId")) AS "itemsWithoutContent",
      (SELECT COUNT(*) FROM "Run" r WHERE r."itemCount" <> (SELECT COUNT(*) FROM "Item" i WHERE i."runId" = r."id")) AS "runsWithWrongCount"`);
  return Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
}

/** Which reference a snapshot equals: "A", "B", or "mix" (anything else). */
export function classify(s: RunSnapshot, refs: Record<string, RunSnapshot>): string {
  for (const [name, ref] of Object.entries(refs)) if (JSON.stringify(s) === JSON.stringify(ref)) return name;
  return "mix";
}

export interface Cli {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>;
}

/** `node bin/stepwise.mjs …` against the store at `url` (loopback or a local file only), with `env` added to this process's environment. */
export function stepwise(url: string, args: string[], env: Record<string, string> = {}): Cli {
  const child = spawn(process.execPath, ["bin/stepwise.mjs", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, DATABASE_URL: url },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal, out })),
  );
  return { child, done };
}

/** Whether process `pid` has `file` open (Linux /proc): the loader is reading it. */
export function hasOpen(pid: number, file: string): boolean {
  try {
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
      try {
        if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === file) return true;
      } catch {
        // the fd closed between readdir and readlink
      }
    }
  } catch {
    // the process is gone
  }
  return false;
}

/** Waits until `pred` holds (polling), or fails after `ms`. */
export async function waitFor(pred: () => boolean | Promise<boolean>, ms: number, what: string, every = 5): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(every);
  }
}
