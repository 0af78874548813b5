import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/db";
import { createSession, endSession, sessionUser } from "../../lib/auth/sessions";
import { createShareLink, listShareLinks, resolveShareLink, resolveShareLinks, revokeShareLink } from "../../lib/auth/share-links";
import { authenticate, createUser, listUsers, setPassword, UserExistsError } from "../../lib/auth/users";
import { createToken, revokeToken, tokenForBearer } from "../../lib/store/tokens";
import { STORE_KINDS } from "../helpers/stores";

// Users, sessions, share links and token roles against the real store, once per provider.
describe.each(STORE_KINDS)("auth store ($name)", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ store, drop } = await kind.create());
  });
  afterAll(async () => drop?.());

  it("creates users with hashed passwords and authenticates them", async () => {
    const u = await createUser(store.prisma, { email: "Ada@Example.org", role: "editor", password: "a long passphrase" });
    expect(u).toMatchObject({ email: "ada@example.org", role: "editor", hasPassword: true });
    const row = await store.prisma.user.findUniqueOrThrow({ where: { id: u.id } });
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(row.passwordHash).not.toContain("passphrase");
    expect(await authenticate(store.prisma, "ADA@example.org", "a long passphrase")).toMatchObject({ id: u.id });
    expect(await authenticate(store.prisma, "ada@example.org", "wrong passphrase")).toBeNull();
    expect(await authenticate(store.prisma, "nobody@example.org", "a long passphrase")).toBeNull();
    await expect(createUser(store.prisma, { email: "ada@example.org", role: "viewer" })).rejects.toBeInstanceOf(UserExistsError);
    expect((await listUsers(store.prisma)).map((x) => x.email)).toContain("ada@example.org");
  });

  it("a user without a password or a disabled user cannot sign in", async () => {
    const u = await createUser(store.prisma, { email: "nopw@example.org", role: "viewer" });
    expect(await authenticate(store.prisma, "nopw@example.org", "")).toBeNull();
    await setPassword(store.prisma, "nopw@example.org", "now it has one");
    expect(await authenticate(store.prisma, "nopw@example.org", "now it has one")).not.toBeNull();
    await store.prisma.user.update({ where: { id: u.id }, data: { disabledAt: new Date() } });
    expect(await authenticate(store.prisma, "nopw@example.org", "now it has one")).toBeNull();
  });

  it("sessions: stored hashed, expire, end on sign-out and on a password change", async () => {
    const u = await createUser(store.prisma, { email: "sess@example.org", role: "admin", password: "session password" });
    const t0 = new Date("2026-06-01T00:00:00Z");
    const s = await createSession(store.prisma, u.id, 2, t0);
    expect(await store.prisma.session.count({ where: { hash: s.secret } })).toBe(0);
    expect(await sessionUser(store, s.secret, new Date(t0.getTime() + 3600_000))).toMatchObject({ userId: u.id, role: "admin" });
    expect(await sessionUser(store, s.secret, new Date(t0.getTime() + 2 * 3600_000))).toBeNull();
    expect(await store.prisma.session.count({ where: { userId: u.id } })).toBe(0); // the expired row is gone

    const s2 = await createSession(store.prisma, u.id, 2);
    expect(await sessionUser(store, s2.secret)).not.toBeNull();
    await endSession(store.prisma, s2.secret);
    expect(await sessionUser(store, s2.secret)).toBeNull();

    const s3 = await createSession(store.prisma, u.id, 2);
    await setPassword(store.prisma, "sess@example.org", "another password");
    expect(await sessionUser(store, s3.secret)).toBeNull();
    for (const junk of [undefined, "", "x", "a".repeat(43) + "'; DROP TABLE"]) expect(await sessionUser(store, junk)).toBeNull();
  });

  it("share links: hashed, bound to a run key, expiring, revocable", async () => {
    const u = await createUser(store.prisma, { email: "share@example.org", role: "editor", password: "share password" });
    const now = new Date();
    const a = await createShareLink(store.prisma, { runKey: "run-a", createdById: u.id, expiresAt: null, label: "for Bob" });
    const b = await createShareLink(store.prisma, { runKey: "run-b", createdById: u.id, expiresAt: new Date(now.getTime() + 60_000) });
    expect(a.path).toBe(`/share/${a.secret}`);
    expect(await store.prisma.shareLink.count({ where: { hash: a.secret } })).toBe(0);
    expect(await resolveShareLink(store.prisma, a.secret)).toBe("run-a");
    expect(await resolveShareLink(store.prisma, b.secret)).toBe("run-b");
    expect(await resolveShareLink(store.prisma, b.secret, new Date(now.getTime() + 120_000))).toBeNull();
    expect((await resolveShareLinks(store, [a.secret, b.secret, "junk"])).sort()).toEqual(["run-a", "run-b"]);
    expect(await listShareLinks(store.prisma, "run-a")).toMatchObject([
      { id: a.id, label: "for Bob", createdBy: "share@example.org", revokedAt: null },
    ]);
    expect(await revokeShareLink(store.prisma, a.id)).toEqual({ runKey: "run-a" });
    expect(await resolveShareLink(store.prisma, a.secret)).toBeNull();
    expect(await resolveShareLinks(store, [a.secret])).toEqual([]);
    expect(await revokeShareLink(store.prisma, 999_999)).toBeNull();
  });

  it("tokens carry a role and an owner; revoked tokens and disabled owners stop working", async () => {
    const u = await createUser(store.prisma, { email: "tok@example.org", role: "editor", password: "token password" });
    const plain = await createToken(store.prisma, "cli");
    expect(await tokenForBearer(store.prisma, `Bearer ${plain.secret}`)).toEqual({ id: plain.id, role: "editor", userId: null });
    const viewer = await createToken(store.prisma, "read-only", { role: "viewer", userId: u.id });
    expect(await tokenForBearer(store.prisma, `Bearer ${viewer.secret}`)).toEqual({ id: viewer.id, role: "viewer", userId: u.id });
    await store.prisma.user.update({ where: { id: u.id }, data: { disabledAt: new Date() } });
    expect(await tokenForBearer(store.prisma, `Bearer ${viewer.secret}`)).toBeNull();
    await revokeToken(store.prisma, plain.id);
    expect(await tokenForBearer(store.prisma, `Bearer ${plain.secret}`)).toBeNull();
    for (const h of [null, "", "Basic abc", "Bearer", `Bearer ${"x".repeat(500)}`])
      expect(await tokenForBearer(store.prisma, h)).toBeNull();
  });
});
