// STEPWISE_PUBLIC_URL: behind a proxy, the CSRF check accepts exactly the public origin (not
// whatever Host or X-Forwarded-Host a request carries), links handed back use it, and an https
// public URL makes cookies Secure.
import { afterEach, describe, expect, it } from "vitest";
import { isSameOrigin, isSecureRequest } from "../../lib/auth/cookies";
import { requestOrigin } from "../../lib/auth/request";
import { env } from "../../lib/env";

const h = (o: Record<string, string>) => new Headers(o);

describe("STEPWISE_PUBLIC_URL", () => {
  afterEach(() => {
    env.STEPWISE_PUBLIC_URL = undefined;
  });

  it("the CSRF check accepts the public origin and refuses others, whatever the Host", () => {
    env.STEPWISE_PUBLIC_URL = "https://stepwise.example.org";
    expect(isSameOrigin(h({ host: "127.0.0.1:3000", origin: "https://stepwise.example.org" }))).toBe(true);
    expect(isSameOrigin(h({ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" }))).toBe(false);
    expect(isSameOrigin(h({ host: "evil.example", "x-forwarded-host": "evil.example", origin: "https://evil.example" }))).toBe(false);
    expect(isSameOrigin(h({ host: "stepwise.example.org", origin: "http://stepwise.example.org" }))).toBe(false); // scheme differs
    expect(isSameOrigin(h({ host: "a", "sec-fetch-site": "same-origin" }))).toBe(true);
    // unset: the Host decides, as before
    env.STEPWISE_PUBLIC_URL = undefined;
    expect(isSameOrigin(h({ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" }))).toBe(true);
  });

  it("links use the public origin, and an https one makes cookies Secure", () => {
    expect(isSecureRequest(h({}), "http://127.0.0.1:3000/x")).toBe(env.STEPWISE_SECURE_COOKIES);
    env.STEPWISE_PUBLIC_URL = "https://stepwise.example.org";
    expect(requestOrigin(h({ host: "127.0.0.1:3000", "x-forwarded-host": "evil.example" }), "http://127.0.0.1:3000")).toBe(
      "https://stepwise.example.org",
    );
    expect(isSecureRequest(h({}), "http://127.0.0.1:3000/x")).toBe(true);
  });
});
