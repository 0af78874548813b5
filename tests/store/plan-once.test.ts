import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgReader } from "../../lib/store/postgres";
import { sql } from "../../lib/store/sql";
import { STORE_KINDS } from "../helpers/stores";

// Reads marked planOnce (lib/store/reader.ts) are named prepared statements on PostgreSQL: the
// connection keeps each one's plan, and the server stops planning it after its first
// executions. Other reads stay unnamed, planned for their values every time.

const postgres = STORE_KINDS.find((k) => k.name === "postgres");
if (!postgres) console.log("plan-once: skipped, STEPWISE_TEST_PG names no PostgreSQL server");

describe.skipIf(!postgres)("reads planned once on PostgreSQL", () => {
  let pool: pg.Pool;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const made = await postgres!.create();
    drop = made.drop;
    // one connection, so that every read below runs where pg_prepared_statements is asked
    pool = new pg.Pool({ connectionString: made.url, max: 1 });
  });
  afterAll(async () => {
    await pool?.end();
    await drop?.();
  });
  const prepared = async () =>
    (
      await pool.query<{ statement: string; generic: number; custom: number }>(
        `SELECT statement, generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements ORDER BY statement`,
      )
    ).rows;

  it("prepares a planned-once read under one name per text, reuses it, and leaves other reads unnamed", async () => {
    const reader = pgReader(pool);
    const byKey = (key: string) => sql`SELECT "id" FROM "Run" WHERE "key" = ${key}`;
    const byLength = (n: number) => sql`SELECT "runId" FROM "RunLengthStat" WHERE "length" = ${n}`;
    for (let i = 0; i < 8; i++) {
      expect(await reader.read(byKey(`run-${i}`), { planOnce: true })).toEqual([]);
      expect(await reader.read(byLength(i), { planOnce: true })).toEqual([]);
      expect(await reader.read(sql`SELECT ${i}::int AS "n"`)).toEqual([{ n: i }]);
    }
    const statements = await prepared();
    expect(statements.map((s) => s.statement)).toEqual([byKey("").text, byLength(0).text].sort());
    // the first five executions are planned for their values, then the server keeps one plan
    for (const s of statements) expect(Number(s.generic) + Number(s.custom)).toBe(8);
    expect(statements.every((s) => Number(s.generic) > 0)).toBe(true);
  });

  it("gives the rows of the values asked for, not of the execution that prepared it", async () => {
    const reader = pgReader(pool);
    const read = (n: number) =>
      reader.read<{ n: number }>(sql`SELECT "x" AS "n" FROM (VALUES (1), (2), (3)) v("x") WHERE "x" = ${n}`, { planOnce: true });
    for (let round = 0; round < 3; round++) for (const n of [1, 2, 3, 4]) expect(await read(n)).toEqual(n <= 3 ? [{ n }] : []);
  });
});
