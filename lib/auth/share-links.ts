import type { Db, Store } from "../db";
import { storedDate } from "../queries/sql-values";
import { readContextOf, type ReadContext } from "../read-context";
import { join, sql } from "../store/sql";
import type { AccessMode } from "./policy";
import { hashSecret, looksLikeSecret, newSecret } from "./secrets";

// Share links: read access to one run for whoever holds the URL. The URL carries 32 random
// bytes; the store keeps their SHA-256, the run key, an optional expiry and a revocation time.
export const SHARE_COOKIE = "sw_share";
/** The most links one browser keeps (a cookie holds their secrets, ~44 bytes each). */
export const MAX_SHARES_PER_BROWSER = 20;

export interface ShareLinkView {
  id: number;
  runKey: string;
  label: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdBy: string | null;
}

export function sharePath(secret: string): string {
  return `/share/${secret}`;
}

export async function createShareLink(
  prisma: Db,
  input: { runKey: string; createdById: number | null; expiresAt: Date | null; label?: string | null },
): Promise<{ id: number; secret: string; path: string }> {
  const secret = newSecret();
  const row = await prisma.shareLink.create({
    data: {
      hash: hashSecret(secret),
      runKey: input.runKey,
      createdById: input.createdById,
      expiresAt: input.expiresAt,
      label: input.label || null,
    },
  });
  return { id: row.id, secret, path: sharePath(secret) };
}

/** The run key a live link grants, or null (unknown, revoked or expired). */
export async function resolveShareLink(prisma: Db, secret: string, now = new Date()): Promise<string | null> {
  if (!looksLikeSecret(secret)) return null;
  const row = await prisma.shareLink.findUnique({ where: { hash: hashSecret(secret) } });
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) return null;
  return row.runKey;
}

/**
 * The read context of a share link's own URL, without cookies (a chat client fetching the link
 * for its preview has none): a stranger holding that one link, so it opens its run and nothing
 * else. Null for a dead or unknown secret.
 */
export async function shareLinkContext(
  store: Store,
  secret: string,
  mode: AccessMode,
): Promise<{ ctx: ReadContext; runKey: string } | null> {
  const runKey = await resolveShareLink(store.prisma, secret);
  return runKey === null ? null : { ctx: readContextOf(store, { kind: "anonymous", shares: [runKey] }, mode), runKey };
}

/**
 * The run keys granted by a browser's share secrets (dead ones simply drop out). Read on every
 * request that carries the cookie, so through the store's driver (lib/store/reader.ts).
 */
export async function resolveShareLinks(store: Store, secrets: string[], now = new Date()): Promise<string[]> {
  const hashes = secrets
    .filter((s) => looksLikeSecret(s))
    .slice(0, MAX_SHARES_PER_BROWSER)
    .map(hashSecret);
  if (!hashes.length) return [];
  const rows = await store.read(
    sql`SELECT "runKey", "expiresAt" FROM "ShareLink" WHERE "hash" IN (${join(hashes)}) AND "revokedAt" IS NULL`,
  );
  return [
    ...new Set(
      rows
        .filter((r) => {
          const expiresAt = storedDate(r.expiresAt);
          return !expiresAt || expiresAt > now;
        })
        .map((r) => String(r.runKey)),
    ),
  ];
}

export async function listShareLinks(prisma: Db, runKey: string): Promise<ShareLinkView[]> {
  const rows = await prisma.shareLink.findMany({
    where: { runKey },
    orderBy: { id: "desc" },
    include: { createdBy: { select: { email: true } } },
  });
  return rows.map((r) => ({
    id: r.id,
    runKey: r.runKey,
    label: r.label,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    revokedAt: r.revokedAt,
    createdBy: r.createdBy?.email ?? null,
  }));
}

export async function revokeShareLink(prisma: Db, id: number, now = new Date()): Promise<{ runKey: string } | null> {
  const row = await prisma.shareLink.findUnique({ where: { id } });
  if (!row) return null;
  if (!row.revokedAt) await prisma.shareLink.update({ where: { id }, data: { revokedAt: now } });
  return { runKey: row.runKey };
}

// Cookie value: secrets joined by "." (not a base64url character, and a valid cookie octet).
export function shareSecretsOf(cookie: string | undefined): string[] {
  return (cookie ?? "")
    .split(".")
    .filter((s) => looksLikeSecret(s))
    .slice(0, MAX_SHARES_PER_BROWSER);
}

/** The newest secret first, duplicates and overflow dropped. */
export function addShareSecret(cookie: string | undefined, secret: string): string {
  return [secret, ...shareSecretsOf(cookie).filter((s) => s !== secret)].slice(0, MAX_SHARES_PER_BROWSER).join(".");
}

/** The JSON shape of a link (API and the share form); never includes the secret. */
export interface ShareLinkJson {
  id: number;
  run: string;
  label: string | null;
  created_at: string;
  created_by: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  active: boolean;
}

export function shareLinkJson(l: ShareLinkView, now = new Date()): ShareLinkJson {
  return {
    id: l.id,
    run: l.runKey,
    label: l.label,
    created_at: l.createdAt.toISOString(),
    created_by: l.createdBy,
    expires_at: l.expiresAt?.toISOString() ?? null,
    revoked_at: l.revokedAt?.toISOString() ?? null,
    active: !l.revokedAt && (!l.expiresAt || l.expiresAt > now),
  };
}
