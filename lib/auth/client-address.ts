// The client's address, for rate limits keyed on it. A server behind a reverse proxy sees only
// the proxy's address, and X-Forwarded-For is whatever the client wrote plus what each proxy
// appended, so the header is believed only when STEPWISE_TRUST_PROXY says how many proxies we
// stand behind: each appends the address it saw, so the client is that many entries from the
// right; anything further left was written by the client and could be anything.

/** null when no proxy is trusted (then limits key on the account only) or the header is unusable. */
export function clientAddress(headers: Headers, trustedProxies: number): string | null {
  if (!(trustedProxies >= 1)) return null;
  const hops = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (hops.length === 0) return null;
  // fewer entries than proxies: the request skipped one, and the leftmost is the best we have
  const raw = hops[Math.max(0, hops.length - trustedProxies)];
  return normaliseAddress(raw);
}

/** IPv4 or IPv6 text (port and brackets dropped, IPv4-mapped IPv6 as IPv4), else null. */
export function normaliseAddress(raw: string): string | null {
  let a = raw.trim().toLowerCase();
  const v4port = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(a);
  if (v4port) a = v4port[1];
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d+)?$/.exec(a);
  if (bracketed) a = bracketed[1];
  if (a.startsWith("::ffff:") && /^\d{1,3}(\.\d{1,3}){3}$/.test(a.slice(7))) a = a.slice(7);
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(a)) return a.split(".").every((o) => Number(o) <= 255) ? a : null;
  if (/^[0-9a-f:.]{2,45}$/.test(a) && a.includes(":")) return a;
  return null;
}
