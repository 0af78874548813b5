import { describe, expect, it } from "vitest";
import { ANONYMOUS, canAdmin, canReadAll, canReadRun, canWrite, roleAtLeast, safeNextPath, type Principal } from "../../lib/auth/policy";
import { loginSchema, shareCreateSchema, userCreateSchema } from "../../lib/auth/schemas";
import { addShareSecret, shareSecretsOf } from "../../lib/auth/share-links";
import { newSecret } from "../../lib/auth/secrets";

const user = (role: "viewer" | "editor" | "admin", shares: string[] = []): Principal => ({
  kind: "user",
  userId: 1,
  email: "a@b.c",
  role,
  shares,
});
const token = (role: "viewer" | "editor" | "admin"): Principal => ({ kind: "token", tokenId: 1, role, userId: null, shares: [] });
const shared: Principal = { kind: "anonymous", shares: ["run-a"] };

describe("authorization policy", () => {
  it("orders roles viewer < editor < admin", () => {
    expect(roleAtLeast("admin", "editor")).toBe(true);
    expect(roleAtLeast("editor", "editor")).toBe(true);
    expect(roleAtLeast("viewer", "editor")).toBe(false);
  });

  it("open mode: everyone reads; writes need an editor (user or token)", () => {
    expect(canReadAll(ANONYMOUS, "open")).toBe(true);
    expect(canReadRun(ANONYMOUS, "open", "any")).toBe(true);
    expect(canWrite(ANONYMOUS)).toBe(false);
    expect(canWrite(user("viewer"))).toBe(false);
    expect(canWrite(user("editor"))).toBe(true);
    expect(canWrite(token("editor"))).toBe(true);
    expect(canWrite(token("viewer"))).toBe(false);
  });

  it("private mode: anonymous reads nothing except the runs of its share links", () => {
    expect(canReadAll(ANONYMOUS, "private")).toBe(false);
    expect(canReadRun(ANONYMOUS, "private", "run-a")).toBe(false);
    expect(canReadAll(shared, "private")).toBe(false);
    expect(canReadRun(shared, "private", "run-a")).toBe(true);
    expect(canReadRun(shared, "private", "run-b")).toBe(false);
    expect(canWrite(shared)).toBe(false);
    expect(canReadAll(user("viewer"), "private")).toBe(true);
    expect(canReadAll(token("viewer"), "private")).toBe(true);
  });

  it("admin is admin only", () => {
    expect(canAdmin(user("admin"))).toBe(true);
    expect(canAdmin(user("editor"))).toBe(false);
    expect(canAdmin(ANONYMOUS)).toBe(false);
  });

  it("returns to same-site paths only after sign-in", () => {
    expect(safeNextPath("/runs/a%2Fb?tab=items")).toBe("/runs/a%2Fb?tab=items");
    for (const bad of ["https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)", "", undefined, 42, "/a\nb"])
      expect(safeNextPath(bad)).toBe("/");
  });
});

describe("auth input schemas", () => {
  it("normalises emails and checks roles and password length", () => {
    expect(userCreateSchema.parse({ email: "  Ada@Example.ORG ", role: "editor" }).email).toBe("ada@example.org");
    expect(userCreateSchema.safeParse({ email: "nope", role: "editor" }).success).toBe(false);
    expect(userCreateSchema.safeParse({ email: "a@b.c", role: "root" }).success).toBe(false);
    expect(userCreateSchema.safeParse({ email: "a@b.c", role: "viewer", password: "short" }).success).toBe(false);
    expect(loginSchema.safeParse({ email: "a@b.c", password: "" }).success).toBe(false);
  });

  it("share links: run required, expiry 1..365 days or empty", () => {
    expect(shareCreateSchema.parse({ run: "k", expiresInDays: "" }).expiresInDays).toBeUndefined();
    expect(shareCreateSchema.parse({ run: "k", expiresInDays: "7" }).expiresInDays).toBe(7);
    expect(shareCreateSchema.safeParse({ run: "k", expiresInDays: "0" }).success).toBe(false);
    expect(shareCreateSchema.safeParse({ run: " ", expiresInDays: "" }).success).toBe(false);
  });

  it("the share cookie keeps valid secrets only, newest first, bounded", () => {
    const a = newSecret();
    const b = newSecret();
    expect(shareSecretsOf(addShareSecret(addShareSecret(undefined, a), b))).toEqual([b, a]);
    expect(shareSecretsOf(addShareSecret(a, a))).toEqual([a]);
    expect(shareSecretsOf("junk.<script>." + a)).toEqual([a]);
    let c = "";
    for (let i = 0; i < 50; i++) c = addShareSecret(c, newSecret());
    expect(shareSecretsOf(c)).toHaveLength(20);
  });
});
