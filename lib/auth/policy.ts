// Who may do what: pure functions of a principal and the access mode, so every rule is
// unit-tested without a server (tests/unit/auth-policy.test.ts). lib/auth/server.ts builds the
// principal of a request; pages, queries and route handlers ask these functions.
export const ROLES = ["viewer", "editor", "admin"] as const;
export type Role = (typeof ROLES)[number];
export type AccessMode = "open" | "private";

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };
export function roleAtLeast(role: Role, min: Role): boolean {
  return RANK[role] >= RANK[min];
}
export function isRole(s: unknown): s is Role {
  return typeof s === "string" && (ROLES as readonly string[]).includes(s);
}

export type Principal =
  /** nobody signed in; `shares` are the run keys opened with valid share links */
  | { kind: "anonymous"; shares: string[] }
  | { kind: "user"; userId: number; email: string; role: Role; shares: string[] }
  | { kind: "token"; tokenId: number; role: Role; userId: number | null; shares: string[] }
  /** the command line on the server: whoever can run it can open the store file anyway */
  | { kind: "local"; role: "admin"; shares: string[] };

export const LOCAL_ADMIN: Principal = { kind: "local", role: "admin", shares: [] };

export const ANONYMOUS: Principal = { kind: "anonymous", shares: [] };

export function roleOf(p: Principal): Role | null {
  return p.kind === "anonymous" ? null : p.role;
}

/** Everything readable: the leaderboard, every run, curves, compare, jobs. */
export function canReadAll(p: Principal, mode: AccessMode): boolean {
  return mode === "open" || p.kind !== "anonymous";
}

/** One run's page, generations and metrics: readers of everything, or a share link for that key. */
export function canReadRun(p: Principal, mode: AccessMode, runKey: string): boolean {
  return canReadAll(p, mode) || p.shares.includes(runKey);
}

/**
 * The run keys a listing may show: null for everything, else only the runs the principal's
 * share links open (a share-link holder in private mode sees its runs and nothing else).
 */
export function visibleRunKeys(p: Principal, mode: AccessMode): string[] | null {
  return canReadAll(p, mode) ? null : p.shares;
}

/** Loads, imports, jobs, share links: editors and admins (users or their tokens), in both modes. */
export function canWrite(p: Principal): boolean {
  const r = roleOf(p);
  return r !== null && roleAtLeast(r, "editor");
}

export function canAdmin(p: Principal): boolean {
  const r = roleOf(p);
  return r !== null && roleAtLeast(r, "admin");
}

/** A path to return to after sign-in: same-site only (no scheme, no `//host`, no backslash tricks). */
export function safeNextPath(next: unknown): string {
  if (typeof next !== "string" || !next.startsWith("/") || next.startsWith("//") || /[\\\u0000-\u001f]/.test(next)) return "/";
  return next.length > 2000 ? "/" : next;
}
