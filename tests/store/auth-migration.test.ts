import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openStore } from "../../lib/db";
import { hashSecret, newSecret } from "../../lib/auth/secrets";
import { listMigrations } from "../../lib/store/migrate";
import { openRaw, openSqliteDatabase } from "../../lib/store/raw";
import { tokenForBearer } from "../../lib/store/tokens";

// Upgrading a store made before users existed (migrations 0001–0002 with API tokens in it):
// 0003_auth rebuilds the SQLite ApiToken table; existing tokens must keep working, as editors.
describe("0003_auth on an existing SQLite store", () => {
  it("keeps existing tokens, which become editor tokens", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-mig-"));
    const url = "file:" + path.join(dir, "old.db");
    try {
      openSqliteDatabase(url).close();
      const raw = await openRaw(url);
      const secret = newSecret("sw_");
      await raw.transaction(async (tx) => {
        await tx.exec('CREATE TABLE IF NOT EXISTS "_stepwise_migrations" ("name" TEXT PRIMARY KEY, "applied_at" TEXT NOT NULL)');
        for (const m of listMigrations("sqlite").filter((m) => m.name < "0003")) {
          await tx.script(m.sql);
          await tx.exec('INSERT INTO "_stepwise_migrations" ("name", "applied_at") VALUES ($1, $2)', [m.name, new Date().toISOString()]);
        }
        await tx.exec('INSERT INTO "ApiToken" ("name", "hash", "prefix") VALUES ($1, $2, $3)', [
          "old",
          hashSecret(secret),
          secret.slice(0, 7),
        ]);
      });
      await raw.close();
      const store = await openStore(url);
      try {
        expect(await tokenForBearer(store.prisma, `Bearer ${secret}`)).toMatchObject({ role: "editor", userId: null });
        expect(await store.prisma.user.count()).toBe(0);
      } finally {
        await store.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
