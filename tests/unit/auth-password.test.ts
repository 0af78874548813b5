import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, SCRYPT_PARAMS, verifyPassword } from "../../lib/auth/password";
import { hashSecret, looksLikeSecret, newSecret, safeEqual } from "../../lib/auth/secrets";

describe("password KDF (scrypt)", () => {
  it("stores algorithm, parameters and a per-user salt in the hash string", async () => {
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).toMatch(new RegExp(`^scrypt\\$${SCRYPT_PARAMS.N}\\$${SCRYPT_PARAMS.r}\\$${SCRYPT_PARAMS.p}\\$[\\w-]{22}\\$[\\w-]{43}$`));
    expect(a).not.toBe(b); // different salts
    expect(a).not.toContain("correct");
  });

  it("verifies the right password and refuses wrong ones", async () => {
    const h = await hashPassword("correct horse battery");
    expect(await verifyPassword("correct horse battery", h)).toBe(true);
    expect(await verifyPassword("correct horse batterY", h)).toBe(false);
    expect(await verifyPassword("", h)).toBe(false);
  });

  it("verifies with the parameters stored in the hash, and flags weaker ones for rehash", async () => {
    const weak = await hashPassword("another password", { N: 1024, r: 8, p: 1 });
    expect(weak.startsWith("scrypt$1024$8$1$")).toBe(true);
    expect(await verifyPassword("another password", weak)).toBe(true);
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash(await hashPassword("x".repeat(12)))).toBe(false);
  });

  it("treats unicode forms alike (NFKC) so the same password typed differently still works", async () => {
    const h = await hashPassword("caf\u00e9 au lait!");
    expect(await verifyPassword("cafe\u0301 au lait!", h)).toBe(true);
  });

  it("refuses malformed or tampered hashes without throwing", async () => {
    for (const bad of [
      null,
      undefined,
      "",
      "plain",
      "scrypt$1$8$1$abc$def",
      "scrypt$33554432$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      "bcrypt$x$y$z$a$b",
    ]) {
      expect(await verifyPassword("whatever", bad)).toBe(false);
    }
  });
});

describe("random secrets", () => {
  it("are 32 bytes of base64url with an optional prefix, stored as sha256", () => {
    const s = newSecret("sw_");
    expect(looksLikeSecret(s, "sw_")).toBe(true);
    expect(Buffer.from(s.slice(3), "base64url")).toHaveLength(32);
    expect(hashSecret(s)).toMatch(/^[0-9a-f]{64}$/);
    expect(newSecret()).not.toBe(newSecret());
    expect(looksLikeSecret("short")).toBe(false);
    expect(looksLikeSecret(s)).toBe(false); // "sw_" is not base64url-of-32 without its prefix
  });

  it("compares in constant time and handles different lengths", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
  });
});
