// `stepwise migrate` against a PostgreSQL database that does not exist: created when the role
// may (then migrated), else an error naming the SQL an administrator must run.
import { execFileSync, spawnSync } from "node:child_process";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { ensurePostgresDatabase } from "../../lib/store/create-database";

const ADMIN = process.env.STEPWISE_TEST_PG;
const suffix = `${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
const database = `stepwise_created_${suffix}`;
const role = `stepwise_nocreate_${suffix}`;
const withPath = (url: string, db: string, user?: string) => {
  const u = new URL(url);
  u.pathname = "/" + db;
  if (user) u.username = user;
  return u.toString();
};
async function admin(sql: string) {
  const c = new pg.Client({ connectionString: ADMIN });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end();
  }
}

describe.skipIf(!ADMIN)("stepwise migrate creates a missing PostgreSQL database", () => {
  afterAll(async () => {
    await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin(`DROP DATABASE IF EXISTS "${database}_2" WITH (FORCE)`);
    await admin(`DROP ROLE IF EXISTS "${role}"`);
  });

  it("creates and migrates it when the role may", () => {
    const url = withPath(ADMIN!, database);
    const out = execFileSync(process.execPath, ["bin/stepwise.mjs", "migrate"], {
      env: { ...process.env, DATABASE_URL: url },
      encoding: "utf8",
    });
    expect(out).toContain("database created");
    expect(out).toContain("store ready (postgres)");
    // again: nothing to create
    const again = execFileSync(process.execPath, ["bin/stepwise.mjs", "migrate"], {
      env: { ...process.env, DATABASE_URL: url },
      encoding: "utf8",
    });
    expect(again).not.toContain("database created");
  });

  it("says which SQL to run when the role may not create databases", async () => {
    await admin(`CREATE ROLE "${role}" LOGIN NOCREATEDB`);
    const url = withPath(ADMIN!, `${database}_2`, role);
    await expect(ensurePostgresDatabase(url)).rejects.toThrow(
      `database "${database}_2" does not exist and role "${role}" may not create it; as a superuser, run: CREATE DATABASE "${database}_2" OWNER "${role}";`,
    );
    const r = spawnSync(process.execPath, ["bin/stepwise.mjs", "migrate"], {
      env: { ...process.env, DATABASE_URL: url },
      encoding: "utf8",
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`as a superuser, run: CREATE DATABASE "${database}_2" OWNER "${role}";`);
  });
});
