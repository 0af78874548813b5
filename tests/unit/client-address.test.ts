import { describe, expect, it } from "vitest";
import { clientAddress, normaliseAddress } from "../../lib/auth/client-address";

const h = (xff?: string) => new Headers(xff === undefined ? {} : { "x-forwarded-for": xff });

describe("clientAddress (X-Forwarded-For believed only behind trusted proxies)", () => {
  it("ignores the header when no proxy is trusted", () => {
    expect(clientAddress(h("203.0.113.7"), 0)).toBeNull();
  });

  it("takes the entry the nearest trusted proxy appended, not what the client wrote", () => {
    // nginx with $proxy_add_x_forwarded_for appends what it saw after the client's own text
    expect(clientAddress(h("10.9.9.9, 203.0.113.7"), 1)).toBe("203.0.113.7");
    expect(clientAddress(h("203.0.113.7"), 1)).toBe("203.0.113.7");
    // a CDN, then nginx: the client is two from the right
    expect(clientAddress(h("1.1.1.1, 203.0.113.7, 198.51.100.2"), 2)).toBe("203.0.113.7");
    // fewer entries than proxies: the leftmost
    expect(clientAddress(h("203.0.113.7"), 2)).toBe("203.0.113.7");
  });

  it("null without a usable header", () => {
    expect(clientAddress(h(), 1)).toBeNull();
    expect(clientAddress(h(" , "), 1)).toBeNull();
    expect(clientAddress(h("not-an-address"), 1)).toBeNull();
    expect(clientAddress(h("300.1.1.1"), 1)).toBeNull();
  });

  it("normalises ports, brackets and IPv4-mapped IPv6", () => {
    expect(normaliseAddress("203.0.113.7:4711")).toBe("203.0.113.7");
    expect(normaliseAddress("[2001:DB8::1]:443")).toBe("2001:db8::1");
    expect(normaliseAddress("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(normaliseAddress("2001:db8::1")).toBe("2001:db8::1");
  });
});
