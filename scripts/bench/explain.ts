// Prints the query plans of the dashboard's hot queries for a loaded store: SQLite's
// EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN ANALYZE, and the median time of 5 runs of each
// (through the driver, after one warm-up run). The SQL mirrors what lib/queries issues
// (Prisma's own statements select more columns; the access paths are the same).
//   DATABASE_URL=file:data/stepwise.db npx --no-install tsx scripts/bench/explain.ts [run-key]
import Database from "better-sqlite3";
import pg from "pg";
import { PG_SESSION_OPTIONS } from "../../lib/store/postgres";
import { providerOf, sqlitePath } from "../../lib/env";
import { dialectOf } from "../../lib/store/dialect";
import { queryTrigrams } from "../../lib/store/search-terms";
import { registerOutputFunction } from "../../lib/store/output-text";

type Query = { name: string; sql: string; params: unknown[] };
type Runner = {
  one(sql: string, params: unknown[]): Promise<Record<string, unknown> | undefined>;
  all(sql: string, params: unknown[]): Promise<Record<string, unknown>[]>;
  plan(q: Query): Promise<string>;
  close(): Promise<void>;
};

function sqliteRunner(url: string): Runner {
  const db = new Database(sqlitePath(url), { readonly: true });
  registerOutputFunction(db); // the search's re-check calls it
  // every query here uses each $n once and in order, so plain ? placeholders serve
  const conv = (sql: string) => sql.replace(/\$\d+/g, "?");
  return {
    async one(sql, params) {
      return db.prepare(conv(sql)).get(...params) as Record<string, unknown> | undefined;
    },
    async all(sql, params) {
      return db.prepare(conv(sql)).all(...params) as Record<string, unknown>[];
    },
    async plan(q) {
      const rows = db.prepare("EXPLAIN QUERY PLAN " + conv(q.sql)).all(...q.params) as { id: number; parent: number; detail: string }[];
      const depth = new Map<number, number>([[0, 0]]);
      return rows.map((r) => (depth.set(r.id, (depth.get(r.parent) ?? 0) + 1), "  ".repeat(depth.get(r.id)! - 1) + r.detail)).join("\n");
    },
    async close() {
      db.close();
    },
  };
}

async function pgRunner(url: string): Promise<Runner> {
  const c = new pg.Client({ connectionString: url, options: PG_SESSION_OPTIONS });
  await c.connect();
  return {
    async one(sql, params) {
      return (await c.query(sql, params)).rows[0];
    },
    async all(sql, params) {
      return (await c.query(sql, params)).rows;
    },
    async plan(q) {
      const r = await c.query("EXPLAIN (ANALYZE, BUFFERS OFF, COSTS OFF) " + q.sql, q.params);
      return r.rows.map((x) => x["QUERY PLAN"]).join("\n");
    },
    async close() {
      await c.end();
    },
  };
}

const url = process.env.DATABASE_URL ?? "file:data/stepwise.db";
const r = providerOf(url) === "postgres" ? await pgRunner(url) : sqliteRunner(url);
const runs = [process.argv[2], undefined];
const run = (await r.one(
  `SELECT "id", "key", "generationCount" FROM "Run" WHERE "hasSteps" = true ${runs[0] ? `AND "key" = $1` : ""} ORDER BY "generationCount" DESC, "key" LIMIT 1`,
  runs[0] ? [runs[0]] : [],
))!;
const other = await r.one(`SELECT "id" FROM "Run" WHERE "id" <> $1 ORDER BY "generationCount" DESC, "key" LIMIT 1`, [run.id]);
const runId = Number(run.id);
const mid = (await r.one(`SELECT "id", "itemId", "itemKey" FROM "Generation" WHERE "runId" = $1 ORDER BY "itemId" LIMIT 1 OFFSET $2`, [
  runId,
  Math.floor(Number(run.generationCount) / 2),
]))!;
const deep = Math.floor(Number(run.generationCount) / 4);
const cols = `g."id", g."itemKey", g."epoch", g."length", g."firstCorrect", g."firstDivergence", g."modes", g."statuses"`;
// halfway down the failed generations, as the bench's deep page
const failed = Number((await r.one(`SELECT SUM("n" - "firstCorrect") AS k FROM "RunLengthStat" WHERE "runId" = $1`, [runId]))?.k ?? 0);
const failedKeys = `SELECT g."itemId", g."epoch" FROM "Generation" g WHERE g."runId" = $1 AND g."firstCorrect" = false ORDER BY g."itemId", g."epoch" LIMIT 50 OFFSET $2`;
// the Next link of the page before it carries the last row of that page as its cursor
const cursor = (await r.one(`${failedKeys.replace("LIMIT 50", "LIMIT 1")}`, [runId, Math.max(0, Math.floor(failed / 2) - 1)]))!;
// a typed page=N starts from the stored signpost at or before its first row (lib/store/signposts.ts)
const signpostSql = `SELECT "position", "itemId", "epoch" FROM "RunSignpost" WHERE "runId" = $1 AND "list" = 'failed' AND "position" <= $2 ORDER BY "position" DESC LIMIT 1`;
const signpost = (await r.one(signpostSql, [runId, Math.floor(failed / 2)])) ?? { position: 0, itemId: 0, epoch: 0 };
/** A page as lib/queries/items.ts reads it: the keys (inner, index-only), then the rows by key. */
const page = (where: string, order: string, limit: string) =>
  `SELECT ${cols}, i."inducedErrorRate" FROM (SELECT g."itemId", g."epoch" FROM "Generation" g WHERE ${where} ORDER BY ${order} ${limit}) k
  JOIN "Generation" g ON g."itemId" = k."itemId" AND g."epoch" = k."epoch" JOIN "Item" i ON i."id" = g."itemId" ORDER BY ${order}`;
const itemOrder = `g."itemId" ASC, g."epoch" ASC`;
// the search's re-check as the item table writes it (on SQLite a function of ours: lib/store/output-text.ts),
// its placeholders numbered after the run's $1
const search = dialectOf(providerOf(url)).outputContains("g", "= 1");
const searchWhere = search.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + 1}`);

const queries: Query[] = [
  {
    name: "leaderboard: page of runs by H_0.5",
    sql: `SELECT "id", "key" FROM "Run" ORDER BY "h50" DESC NULLS LAST, "key" LIMIT 50`,
    params: [],
  },
  {
    name: "leaderboard: length stats of the page's runs",
    sql: `SELECT * FROM "RunLengthStat" WHERE "runId" IN ($1) ORDER BY "length"`,
    params: [runId],
  },
  { name: "run header", sql: `SELECT * FROM "Run" WHERE "key" = $1`, params: [run.key] },
  // a page is one statement (lib/queries/items.ts): a deferred join of its keys to its rows
  {
    name: "items: default order, deep page by OFFSET (other sorts and filters page this way)",
    sql: page(`g."runId" = $1`, itemOrder, "LIMIT 50 OFFSET $2"),
    params: [runId, deep],
  },
  { name: "items: failed, typed page=N: its signpost", sql: signpostSql, params: [runId, Math.floor(failed / 2)] },
  {
    name: "items: failed, typed page=N: the page from its signpost (OFFSET < 256)",
    sql: page(
      `g."runId" = $1 AND g."firstCorrect" = false AND g."itemId" >= $2 AND NOT (g."itemId" = $3 AND g."epoch" < $4)`,
      itemOrder,
      "LIMIT 50 OFFSET $5",
    ),
    params: [
      runId,
      Number(signpost.itemId),
      Number(signpost.itemId),
      Number(signpost.epoch),
      Math.floor(failed / 2) - Number(signpost.position),
    ],
  },
  {
    name: "items: failed, deep page by its Next link (keyset cursor)",
    sql: page(
      `g."runId" = $1 AND g."firstCorrect" = false AND g."itemId" >= $2 AND NOT (g."itemId" = $3 AND g."epoch" <= $4)`,
      itemOrder,
      "LIMIT 50 OFFSET 0",
    ),
    params: [runId, Number(cursor.itemId), Number(cursor.itemId), Number(cursor.epoch)],
  },
  {
    name: "items: capped count (slips)",
    sql: `SELECT COUNT(*) AS "n" FROM (SELECT 1 FROM "Generation" g WHERE g."runId" = $1 AND g."divergenceKind" = 'slip' LIMIT 1001) t`,
    params: [runId],
  },
  {
    name: "items: search, page 1",
    sql: page(`g."runId" = $1 AND ${searchWhere}`, itemOrder, "LIMIT 50 OFFSET 0"),
    params: [runId, ...search.values],
  },
  {
    name: "items: search candidates (the run's rows of the search index for the text's trigrams)",
    sql: `SELECT "block", "ids" FROM "SearchPosting" WHERE "runId" = $1 AND "block" IN (0, 1, 2, 3) AND "trigram" IN ($2, $3)`,
    params: [runId, ...queryTrigrams("zzqq")!],
  },
  { name: "generation: item", sql: `SELECT * FROM "Item" WHERE "runId" = $1 AND "key" = $2`, params: [runId, mid.itemKey] },
  {
    name: "generation: position by count (only runs written one at a time; loaded runs read Generation.ordinal)",
    sql: `SELECT COUNT(*) FROM "Generation" WHERE "runId" = $1 AND "itemId" < $2`,
    params: [runId, mid.itemId],
  },
  {
    name: "generation: previous failed",
    sql: `SELECT "itemKey", "epoch" FROM "Generation" WHERE "runId" = $1 AND "firstCorrect" = false AND "itemId" < $2 ORDER BY "itemId" DESC, "epoch" DESC LIMIT 1`,
    params: [runId, mid.itemId],
  },
  {
    name: "generation: next failed",
    sql: `SELECT "itemKey", "epoch" FROM "Generation" WHERE "runId" = $1 AND "firstCorrect" = false AND "itemId" > $2 ORDER BY "itemId", "epoch" LIMIT 1`,
    params: [runId, mid.itemId],
  },
];
if (other) {
  const h = dialectOf(providerOf(url)).hint().sql; // the store's planner hint, as lib/queries/compare-sql.ts writes it
  const join = `FROM "Generation" a JOIN "Generation" b ON b."runId" = $2 AND b."itemKey" = a."itemKey" AND ${h}b."epoch" = 0 WHERE a."runId" = $1 AND a."epoch" = 0`;
  queries.push(
    {
      name: "compare: 2×2 table per length (once per pair, then cached)",
      sql: `SELECT a."length", COUNT(*), SUM(CASE WHEN a."firstCorrect" = true AND b."firstCorrect" = false THEN 1 ELSE 0 END) ${join} GROUP BY a."length"`,
      params: [runId, other.id],
    },
    {
      name: "compare: histogram of divergence shifts (once per pair, then cached)",
      sql: `SELECT b."firstDivergence" - a."firstDivergence" AS d, COUNT(*) ${join} AND ${h}a."length" = ${h}b."length" AND (b."firstDivergence" - a."firstDivergence") IS NOT NULL GROUP BY b."firstDivergence" - a."firstDivergence"`,
      params: [runId, other.id],
    },
    {
      name: "compare: page of regressions",
      sql: `SELECT a."itemKey", a."length" ${join} AND ${h}a."length" = ${h}b."length" AND a."firstCorrect" AND NOT b."firstCorrect" ORDER BY a."length", a."id" LIMIT 50 OFFSET 0`,
      params: [runId, other.id],
    },
  );
}
console.log(`# Query plans — ${providerOf(url)}, run ${run.key} (${Number(run.generationCount).toLocaleString("en")} generations)\n`);
/** Median wall time of 5 runs after a warm-up, in ms. */
async function time(q: Query): Promise<number> {
  await r.all(q.sql, q.params);
  const t: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await r.all(q.sql, q.params);
    t.push(performance.now() - t0);
  }
  return t.sort((x, y) => x - y)[2];
}
for (const q of queries)
  console.log(
    `## ${q.name}\n\n\`\`\`sql\n${q.sql}\n\`\`\`\n\`\`\`\n${await r.plan(q)}\n\`\`\`\nmedian of 5: ${(await time(q)).toFixed(2)} ms\n`,
  );
await r.close();
