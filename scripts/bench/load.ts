import fs from "node:fs";
import path from "node:path";
import { pgBytes, sqliteBytes, storeFigures, type FileFigures } from "./file-figures";
import { parseFloor } from "./parse-floor";
import { child, fmt, freshParseFloor, freshPgDatabase, loaderChild } from "./util";

// Load throughput: our loader (analysis included) beside the database's fastest bulk path
// for the same rows, measured in the same run.
export interface LoadFigures {
  provider: string;
  items: number;
  /** seconds: the load up to its commit (rows and analysis); searchIndexSeconds: the search index built after it */
  ours: {
    seconds: number;
    searchIndexSeconds: number;
    cpuSeconds: number;
    /** a local PostgreSQL server's CPU during the load (null for SQLite or without /proc) */
    serverCpuSeconds: number | null;
    startSeconds: number;
    endSeconds: number;
    checkpointSeconds: number;
    items: number;
    generations: number;
    steps: number;
    maxRssMB: number;
  };
  base: { seconds: number; rows: number };
  ratio: number;
  /** the same with the search index's time added to ours */
  ratioWithIndex: number;
}

export interface LoadedStores {
  figures: LoadFigures[];
  /** the same load beside the parse floor and the store's bytes beside the file's */
  file: FileFigures;
  /** the stores our loader filled, kept for the page benchmark */
  sqliteUrl: string;
  sqliteFile: string;
  pgUrl: string | null;
  cleanup(): Promise<void>;
}

export async function benchLoad(file: string, dir: string, pgAdmin: string | null, tag: string): Promise<LoadedStores> {
  const out: LoadFigures[] = [];
  const floor = await parseFloor(file);
  const freshFloor = await freshParseFloor(file);
  const fileFigures: FileFigures = {
    file,
    fileBytes: fs.statSync(file).size,
    lines: floor.lines,
    parseSeconds: floor.seconds,
    parseCpuSeconds: floor.cpuSeconds,
    parseFreshSeconds: freshFloor.seconds,
    stores: [],
  };
  const db = path.join(dir, `load-${tag}.db`);
  for (const f of [db, db + "-wal", db + "-shm"]) fs.rmSync(f, { force: true });
  const ours = await loaderChild<LoadFigures["ours"]>("scripts/bench/load-worker.ts", ["file:" + db, file]);
  const bytes = sqliteBytes(db);
  const baseFile = path.join(dir, "baseline.db");
  const base = child<LoadFigures["base"]>(["scripts/bench/baseline-sqlite.ts", db, baseFile]);
  for (const f of [baseFile, baseFile + "-wal", baseFile + "-shm"]) fs.rmSync(f, { force: true });
  out.push(figures("SQLite", ours, base));
  fileFigures.stores.push(storeFigures("SQLite", ours, base, bytes));
  let loaded: { url: string; drop(): Promise<void> } | null = null;
  if (pgAdmin) {
    loaded = await freshPgDatabase(pgAdmin, `stepwise_bench_${tag}`);
    const b = await freshPgDatabase(pgAdmin, "stepwise_bench_base");
    try {
      const oursPg = await loaderChild<LoadFigures["ours"]>("scripts/bench/load-worker.ts", [loaded.url, file]);
      const bytesPg = await pgBytes(loaded.url);
      const basePg = child<LoadFigures["base"]>(["scripts/bench/baseline-pg.ts", loaded.url, b.url]);
      out.push(figures("PostgreSQL", oursPg, basePg));
      fileFigures.stores.push(storeFigures("PostgreSQL", oursPg, basePg, bytesPg));
    } finally {
      await b.drop();
    }
  }
  return {
    figures: out,
    file: fileFigures,
    sqliteUrl: "file:" + db,
    sqliteFile: db,
    pgUrl: loaded?.url ?? null,
    async cleanup() {
      await loaded?.drop();
      for (const f of [db, db + "-wal", db + "-shm"]) fs.rmSync(f, { force: true });
    },
  };
}

function figures(provider: string, ours: LoadFigures["ours"], base: LoadFigures["base"]): LoadFigures {
  const ourRows = ours.items + ours.generations;
  const baseRate = base.rows / base.seconds;
  return {
    provider,
    items: ours.items,
    ours,
    base,
    ratio: ourRows / ours.seconds / baseRate,
    ratioWithIndex: ourRows / (ours.seconds + ours.searchIndexSeconds) / baseRate,
  };
}

export function printLoad(rows: LoadFigures[]) {
  console.log(
    "\n| store | items | ours: steps/s | ours: items/s | ours: rows/s | peak RSS | baseline rows/s | ratio | search index s | ratio incl. index |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    const ourRows = r.ours.items + r.ours.generations;
    console.log(
      `| ${r.provider} | ${fmt(r.items)} | ${fmt(r.ours.steps / r.ours.seconds)} | ${fmt(r.ours.items / r.ours.seconds)} | ${fmt(ourRows / r.ours.seconds)} | ${fmt(r.ours.maxRssMB)} MB | ${fmt(r.base.rows / r.base.seconds)} | ${r.ratio.toFixed(2)} | ${r.ours.searchIndexSeconds.toFixed(1)} | ${r.ratioWithIndex.toFixed(2)} |`,
    );
  }
}
