import type { Db, Store } from "../db";
import { storedDate } from "../queries/sql-values";
import { sql } from "../store/sql";
import { isRole, type Role } from "./policy";
import { hashSecret, looksLikeSecret, newSecret } from "./secrets";

// Server-side sessions: the cookie holds a random secret, the store its SHA-256 and an expiry.
// Signing out or an expired row ends the session for good (nothing to forge, nothing to replay).
export const SESSION_COOKIE = "sw_session";

export interface SessionUser {
  userId: number;
  email: string;
  role: Role;
  expiresAt: Date;
}

export async function createSession(
  prisma: Db,
  userId: number,
  ttlHours: number,
  now = new Date(),
): Promise<{ secret: string; expiresAt: Date }> {
  const secret = newSecret();
  const expiresAt = new Date(now.getTime() + ttlHours * 3600_000);
  await prisma.session.create({ data: { hash: hashSecret(secret), userId, expiresAt } });
  // Housekeeping on sign-in keeps the table small without a scheduler.
  await prisma.session.deleteMany({ where: { expiresAt: { lt: now } } });
  return { secret, expiresAt };
}

/**
 * The signed-in user of a session cookie, or null when unknown, expired or the user is disabled.
 * Read on every signed-in request, so through the store's driver (lib/store/reader.ts).
 */
export async function sessionUser(store: Store, secret: string | undefined, now = new Date()): Promise<SessionUser | null> {
  if (!secret || !looksLikeSecret(secret)) return null;
  const [row] = await store.read(
    sql`
    SELECT s."id", s."userId", s."expiresAt", u."email", u."role", u."disabledAt"
    FROM "Session" s JOIN "User" u ON u."id" = s."userId" WHERE s."hash" = ${hashSecret(secret)}`,
    { planOnce: true },
  );
  if (!row) return null;
  const expiresAt = storedDate(row.expiresAt)!;
  if (expiresAt <= now) {
    await store.prisma.session.deleteMany({ where: { id: Number(row.id) } });
    return null;
  }
  const role = String(row.role);
  if (storedDate(row.disabledAt) || !isRole(role)) return null;
  return { userId: Number(row.userId), email: String(row.email), role, expiresAt };
}

export async function endSession(prisma: Db, secret: string | undefined): Promise<void> {
  if (secret && looksLikeSecret(secret)) await prisma.session.deleteMany({ where: { hash: hashSecret(secret) } });
}
