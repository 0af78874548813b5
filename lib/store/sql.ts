// The tagged SQL template of raw reads, from Prisma's runtime rather than a generated client:
// importing `Prisma` from lib/generated/sqlite/client pulled the SQLite client's module graph
// into every PostgreSQL reader. Values are bound parameters; `raw` is for fixed identifiers only.
export { join, raw, Sql, sqltag as sql } from "@prisma/client/runtime/client";
