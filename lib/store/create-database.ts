import { providerOf } from "../env";

// `stepwise migrate` on a PostgreSQL server whose database does not exist yet: create it, as
// `prisma migrate` does, when the role may; otherwise say which SQL an administrator must run.

export class DatabaseMissingError extends Error {}

const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** Creates the database named by a postgresql:// URL when it is missing. Returns whether it did. */
export async function ensurePostgresDatabase(url: string): Promise<boolean> {
  if (providerOf(url) !== "postgres") return false;
  const { default: pg } = await import("pg");
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    return false;
  } catch (e) {
    if ((e as { code?: string }).code !== "3D000") throw e; // not "database does not exist"
  } finally {
    await probe.end().catch(() => undefined);
  }
  const u = new URL(url);
  const database = decodeURIComponent(u.pathname.replace(/^\//, ""));
  const role = decodeURIComponent(u.username) || process.env.PGUSER || "the connecting role";
  u.pathname = "/postgres"; // the maintenance database every server has
  const admin = new pg.Client({ connectionString: u.toString() });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${quoteIdent(database)}`);
    return true;
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "42P04") return false; // created meanwhile by another process
    const sqlHint = `CREATE DATABASE ${quoteIdent(database)} OWNER ${quoteIdent(role)};`;
    if (code === "42501")
      throw new DatabaseMissingError(
        `database "${database}" does not exist and role "${role}" may not create it; as a superuser, run: ${sqlHint}`,
      );
    throw new DatabaseMissingError(
      `database "${database}" does not exist and could not be created (${(e as Error).message}); as a superuser, run: ${sqlHint}`,
    );
  } finally {
    await admin.end().catch(() => undefined);
  }
}
