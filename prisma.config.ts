import path from "node:path";
import { defineConfig } from "prisma/config";

// The js engine does not read .env, so the SQLite default lives here and in lib/env.ts.
process.env.DATABASE_URL ??= "file:" + path.resolve("data/stepwise.db");
const isPostgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: isPostgres ? "prisma/postgres/schema.prisma" : "prisma/sqlite/schema.prisma",
  async adapter() {
    if (isPostgres) {
      const { PrismaPg } = await import("@prisma/adapter-pg");
      return new PrismaPg({ connectionString: process.env.DATABASE_URL! });
    }
    const { PrismaBetterSQLite3 } = await import("@prisma/adapter-better-sqlite3");
    return new PrismaBetterSQLite3({ url: process.env.DATABASE_URL! });
  },
});
