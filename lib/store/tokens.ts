import type { Db } from "../db";
import { isRole, type Role } from "../auth/policy";
import { hashSecret, newSecret, safeEqual } from "../auth/secrets";

// API tokens are 32 random bytes: with that much entropy a single SHA-256 is a sound way to
// store them (a slow KDF protects low-entropy passwords, not random secrets). A token carries a
// role (editor by default: tokens exist to write) and, when made by a signed-in user, its owner.
export interface TokenPrincipal {
  id: number;
  role: Role;
  userId: number | null;
}

export async function createToken(
  prisma: Db,
  name: string,
  opts: { role?: Role; userId?: number | null } = {},
): Promise<{ id: number; secret: string }> {
  const secret = newSecret("sw_");
  const row = await prisma.apiToken.create({
    data: { name, hash: hashSecret(secret), prefix: secret.slice(0, 7), role: opts.role ?? "editor", userId: opts.userId ?? null },
  });
  return { id: row.id, secret };
}

export async function listTokens(prisma: Db) {
  return prisma.apiToken.findMany({
    orderBy: { id: "asc" },
    select: { id: true, name: true, prefix: true, role: true, userId: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
}

export async function revokeToken(prisma: Db, id: number): Promise<boolean> {
  const r = await prisma.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  return r.count > 0;
}

/** The token of an `Authorization: Bearer …` header, or null (absent, unknown, revoked, owner disabled). */
export async function tokenForBearer(prisma: Db, header: string | null): Promise<TokenPrincipal | null> {
  const m = /^Bearer\s+(\S{1,200})$/i.exec(header ?? "");
  if (!m) return null;
  const hash = hashSecret(m[1]);
  const row = await prisma.apiToken.findUnique({ where: { hash }, include: { user: { select: { disabledAt: true } } } });
  if (!row || row.revokedAt || row.user?.disabledAt || !isRole(row.role)) return null;
  if (!safeEqual(row.hash, hash)) return null;
  // One write per request is cheap next to a load; it tells an admin which tokens are in use.
  await prisma.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  return { id: row.id, role: row.role, userId: row.userId };
}
