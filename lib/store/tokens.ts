import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Db } from "../db";

// API tokens are 32 random bytes: with that much entropy a single SHA-256 is a sound way to
// store them (a slow KDF protects low-entropy passwords, not random secrets).
const hashOf = (secret: string) => createHash("sha256").update(secret).digest("hex");

export async function createToken(prisma: Db, name: string): Promise<{ id: number; secret: string }> {
  const secret = "sw_" + randomBytes(32).toString("base64url");
  const row = await prisma.apiToken.create({ data: { name, hash: hashOf(secret), prefix: secret.slice(0, 7) } });
  return { id: row.id, secret };
}

export async function listTokens(prisma: Db) {
  return prisma.apiToken.findMany({
    orderBy: { id: "asc" },
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
}

export async function revokeToken(prisma: Db, id: number): Promise<boolean> {
  const r = await prisma.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  return r.count > 0;
}

/** Checks an `Authorization: Bearer …` header; returns the token id or null. */
export async function verifyBearer(prisma: Db, header: string | null): Promise<number | null> {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  if (!m) return null;
  const hash = hashOf(m[1]);
  const row = await prisma.apiToken.findUnique({ where: { hash } });
  if (!row || row.revokedAt) return null;
  if (!timingSafeEqual(Buffer.from(row.hash), Buffer.from(hash))) return null;
  await prisma.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  return row.id;
}
