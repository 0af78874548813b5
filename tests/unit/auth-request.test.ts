import { describe, expect, it } from "vitest";
import { cookieOptions, isSameOrigin } from "../../lib/auth/cookies";
import { requestOrigin } from "../../lib/auth/request";

const h = (o: Record<string, string>) => new Headers(o);

describe("CSRF origin check for cookie-authenticated writes", () => {
  it("accepts our own origin and refuses others", () => {
    expect(isSameOrigin(h({ host: "stepwise.lab:3000", origin: "http://stepwise.lab:3000" }))).toBe(true);
    expect(isSameOrigin(h({ host: "stepwise.lab:3000", origin: "http://evil.example" }))).toBe(false);
    expect(isSameOrigin(h({ host: "stepwise.lab:3000", origin: "http://stepwise.lab:3001" }))).toBe(false);
    expect(isSameOrigin(h({ host: "stepwise.lab", origin: "null" }))).toBe(false);
    expect(isSameOrigin(h({ host: "stepwise.lab", origin: "not a url" }))).toBe(false);
  });

  it("behind a reverse proxy, compares with X-Forwarded-Host", () => {
    expect(
      isSameOrigin(h({ host: "127.0.0.1:3000", "x-forwarded-host": "stepwise.example.org", origin: "https://stepwise.example.org" })),
    ).toBe(true);
    expect(isSameOrigin(h({ host: "127.0.0.1:3000", "x-forwarded-host": "stepwise.example.org", origin: "http://127.0.0.1:3000" }))).toBe(
      false,
    );
  });

  it("without Origin, trusts only Fetch Metadata saying same-origin", () => {
    expect(isSameOrigin(h({ host: "a", "sec-fetch-site": "same-origin" }))).toBe(true);
    expect(isSameOrigin(h({ host: "a", "sec-fetch-site": "cross-site" }))).toBe(false);
    expect(isSameOrigin(h({ host: "a", "sec-fetch-site": "same-site" }))).toBe(false);
    expect(isSameOrigin(h({ host: "a" }))).toBe(false);
  });
});

describe("cookies and links", () => {
  it("session cookies are HttpOnly, SameSite=Lax, site-wide, Secure when asked", () => {
    const exp = new Date("2030-01-01T00:00:00Z");
    expect(cookieOptions(false, exp)).toEqual({ httpOnly: true, sameSite: "lax", secure: false, path: "/", expires: exp });
    expect(cookieOptions(true).secure).toBe(true);
  });

  it("links handed back use the host the client used, never a malformed one", () => {
    expect(requestOrigin(h({ host: "127.0.0.1:3101" }), "http://localhost:3101")).toBe("http://127.0.0.1:3101");
    expect(
      requestOrigin(h({ host: "x", "x-forwarded-host": "stepwise.example.org", "x-forwarded-proto": "https" }), "http://localhost:3000"),
    ).toBe("https://stepwise.example.org");
    expect(requestOrigin(h({ host: "evil.example/@x" }), "http://localhost:3000")).toBe("http://localhost:3000");
    expect(requestOrigin(h({}), "http://localhost:3000")).toBe("http://localhost:3000");
  });
});
