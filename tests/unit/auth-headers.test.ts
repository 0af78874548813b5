import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { API_CSP, HSTS, newNonce, pageCsp, STATIC_HEADERS } from "../../lib/security/headers";

describe("security headers", () => {
  it("page CSP: nonce scripts only, no plugins, no framing, no base tag, forms to self", () => {
    const csp = pageCsp("abc123==");
    const d = Object.fromEntries(csp.split("; ").map((x) => [x.split(" ")[0], x.split(" ").slice(1).join(" ")]));
    expect(d["script-src"]).toBe("'self' 'nonce-abc123==' 'strict-dynamic'");
    expect(d["script-src"]).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(d["object-src"]).toBe("'none'");
    expect(d["frame-ancestors"]).toBe("'none'");
    expect(d["base-uri"]).toBe("'none'");
    expect(d["form-action"]).toBe("'self'");
    expect(d["default-src"]).toBe("'self'");
    expect(csp).not.toContain("upgrade-insecure-requests");
    expect(pageCsp("n", { https: true })).toContain("upgrade-insecure-requests");
    expect(pageCsp("n", { dev: true })).toContain("'unsafe-eval'");
  });

  it("nonces are fresh 16-byte values", () => {
    const a = newNonce();
    expect(Buffer.from(a, "base64")).toHaveLength(16);
    expect(newNonce()).not.toBe(a);
  });

  it("next.config.js sends the same static headers, HSTS and API CSP", () => {
    const cfg = fs.readFileSync("next.config.js", "utf8");
    for (const h of [...STATIC_HEADERS, HSTS]) expect(cfg).toContain(`{ key: "${h.key}", value: "${h.value}" }`);
    expect(cfg).toContain(`const API_CSP = "${API_CSP}"`);
  });

  it("proxy.ts leaves API routes alone (a proxy would buffer and cap their bodies), and preview images (they check access themselves)", () => {
    const proxy = fs.readFileSync("proxy.ts", "utf8");
    expect(proxy).toContain("(?!api/|export/|og/|_next/static");
  });
});
