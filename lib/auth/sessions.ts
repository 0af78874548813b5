import type { Db } from "../db";
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

/** The signed-in user of a session cookie, or null when unknown, expired or the user is disabled. */
export async function sessionUser(prisma: Db, secret: string | undefined, now = new Date()): Promise<SessionUser | null> {
  if (!secret || !looksLikeSecret(secret)) return null;
  const row = await prisma.session.findUnique({ where: { hash: hashSecret(secret) }, include: { user: true } });
  if (!row) return null;
  if (row.expiresAt <= now) {
    await prisma.session.deleteMany({ where: { id: row.id } });
    return null;
  }
  if (row.user.disabledAt || !isRole(row.user.role)) return null;
  return { userId: row.userId, email: row.user.email, role: row.user.role, expiresAt: row.expiresAt };
}

export async function endSession(prisma: Db, secret: string | undefined): Promise<void> {
  if (secret && looksLikeSecret(secret)) await prisma.session.deleteMany({ where: { hash: hashSecret(secret) } });
}
