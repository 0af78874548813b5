import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { listMigrations } from "../../lib/store/migrate";

// The PostgreSQL schema is a copy of the SQLite one; migrations come in pairs.
const strip = (s: string) =>
  s
    .split("\n")
    .filter((l) => !l.startsWith("//"))
    .join("\n")
    .replace(/provider = "(sqlite|postgresql)"/, "")
    .replace(/lib\/generated\/(sqlite|postgres)/, "")
    .trim();

describe("schemas and migrations", () => {
  it("keeps prisma/postgres/schema.prisma in step with prisma/sqlite/schema.prisma", () => {
    const a = fs.readFileSync("prisma/sqlite/schema.prisma", "utf8");
    const b = fs.readFileSync("prisma/postgres/schema.prisma", "utf8");
    expect(strip(b)).toBe(strip(a));
  });

  it("has the same migrations for both providers", () => {
    const names = (p: "sqlite" | "postgres") => listMigrations(p).map((m) => m.name);
    expect(names("postgres")).toEqual(names("sqlite"));
    expect(names("sqlite").length).toBeGreaterThan(0);
  });
});
